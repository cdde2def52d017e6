// Which of the given characters have no glyph in any font the page may use: each is drawn on a canvas in the
// page's own font and compared with a character no font has (its rendering is the missing-glyph box).
(chars) => {
  const family = getComputedStyle(document.body).fontFamily;
  const canvas = document.createElement("canvas");
  canvas.width = 64; canvas.height = 64;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  const draw = (c) => {
    ctx.clearRect(0, 0, 64, 64);
    ctx.font = `40px ${family}`;
    ctx.fillStyle = "#000";
    ctx.textBaseline = "middle";
    ctx.fillText(c, 8, 32);
    return Array.from(ctx.getImageData(0, 0, 64, 64).data).join(",");
  };
  const none = draw("\u{10FFFD}");
  const blank = draw(" ");
  return { missing: chars.filter((c) => draw(c) === none || draw(c) === blank), boxIsDrawn: none !== blank };
}
