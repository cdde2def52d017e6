import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  { files: ["public/js/**/*.js", "checks/**/*.js"], languageOptions: { sourceType: "module", globals: globals.browser } },
  { files: ["scripts/**/*.mjs"], languageOptions: { sourceType: "module", globals: globals.node } },
];
