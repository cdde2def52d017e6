// The texts of the page whose colour contrast with their background is under WCAG AA (4.5:1, or 3:1 when
// large); evaluated in the page by tests/web/test_table_pages.py. Answers {bad: [descriptions], checked: count}.
(() => {
  const rgb = (c) => { const p = c.match(/[\d.]+/g).map(Number); return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1}; };
  const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c.a > 0) return c; }
    return {r: 255, g: 255, b: 255, a: 1};
  };
  const bad = [];
  let checked = 0;
  for (const el of document.querySelectorAll('body *')) {
    if (['OPTION', 'SCRIPT', 'STYLE'].includes(el.tagName) || el.closest('select')) continue;
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    if (el.getClientRects().length === 0) continue;
    const style = getComputedStyle(el);
    const fg = rgb(style.color), bg = background(el);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
    const needed = size >= 24 || (size >= 18.66 && bold) ? 3 : 4.5;
    checked += 1;
    if (ratio < needed) bad.push(`${el.tagName}#${el.id}.${el.className} "${el.textContent.trim().slice(0, 20)}": ${style.color} on ${getComputedStyle(el).backgroundColor} ${ratio.toFixed(2)}`);
  }
  return {bad, checked};
})
