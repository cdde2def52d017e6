// The web table's TypeScript types from the OpenAPI document: `node scripts/types.mjs [SPEC] [OUT]`
// (`npm run types`; defaults ../../openapi/openapi.json and types/openapi.d.ts, relative to clients/web).
//
// openapi-typescript with its default options, and one addition through its `transform` hook: an array whose
// schema says `minItems: 1` is written `[Item, ...Item[]]`, so a play's `cards: []` does not type-check, as the
// server refuses it. The CLI's `--array-length` cannot say it: it turns a `maxItems` into tuples (seats of 2 to 4
// into a union of fixed tuples, a play's 52 cards back into a plain array). Other arrays are written as before.
// tests/contract/test_typescript.py makes its types with this script too.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import openapiTS, { astToString, COMMENT_HEADER, transformSchemaObject } from "openapi-typescript";

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const [specArg, outArg] = process.argv.slice(2);
const spec = path.resolve(specArg ?? path.join(web, "..", "..", "openapi", "openapi.json"));
const out = path.resolve(outArg ?? path.join(web, "types", "openapi.d.ts"));

/**
 * `[Item, ...Item[]]` for an array schema with `minItems: 1`; nothing (the default rendering) for any other schema.
 * @param {import("openapi-typescript").SchemaObject} schema
 * @param {import("openapi-typescript").TransformNodeOptions} options
 * @returns {ts.TypeNode | undefined}
 */
function nonEmptyArray(schema, options) {
  if (schema.type !== "array" || schema.minItems !== 1 || !schema.items || Array.isArray(schema.items)) {
    return undefined;
  }
  const item = transformSchemaObject(schema.items, { ...options, path: `${options.path ?? ""}/items` });
  const nonEmpty = ts.factory.createTupleTypeNode([item, ts.factory.createRestTypeNode(ts.factory.createArrayTypeNode(item))]);
  return options.ctx.immutable ? ts.factory.createTypeOperatorNode(ts.SyntaxKind.ReadonlyKeyword, nonEmpty) : nonEmpty;
}

const ast = await openapiTS(pathToFileURL(spec), { transform: nonEmptyArray, silent: true });
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${COMMENT_HEADER}${astToString(ast)}`, "utf8");
