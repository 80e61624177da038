// Rebuilds openapi.json (and LICENSE) in this folder from the pinned npm package `discord-api-spec`.
//
//     node tests/discord_emulator/spec/generate.mjs            # the pinned version below
//     node tests/discord_emulator/spec/generate.mjs 10.0.NNN   # another published version
//
// The package is generated from Discord's OpenAPI description (github.com/discord/discord-api-spec, MIT) but
// ships it as TypeScript (`Paths`: every path, method, parameter and request body) and Zod schemas (every
// component, with its limits). This script turns those back into an OpenAPI 3.1 document of what the emulator
// needs: paths, methods, operation ids, path/query parameters, request-body JSON Schemas, and the component
// schemas they reference. It needs only node and npm: the package, zod and typescript are installed into a
// temporary folder from the npm registry.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const PINNED = "10.0.266135";
const version = process.argv[2] ?? PINNED;
const here = dirname(fileURLToPath(import.meta.url));
const work = mkdtempSync(join(tmpdir(), "discord-api-spec-"));

try {
  writeFileSync(join(work, "package.json"), '{"private": true}');
  execFileSync(
    "npm",
    ["install", "--no-audit", "--no-fund", "--silent", `discord-api-spec@${version}`, "zod@4", "typescript@5"],
    { cwd: work, stdio: "inherit" },
  );
  const pkg = join(work, "node_modules", "discord-api-spec");
  const installed = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).version;
  const z = await import(pathToFileURL(join(work, "node_modules", "zod", "mini", "index.js")).href);
  const ts = (await import(pathToFileURL(join(work, "node_modules", "typescript", "lib", "typescript.js")).href))
    .default;
  const schemas = await import(pathToFileURL(join(pkg, "build", "discord-api-spec.zod.js")).href);

  // components: every exported Zod schema, by its name without the "Schema" suffix
  const registry = z.registry();
  const names = new Set();
  for (const [exported, schema] of Object.entries(schemas)) {
    if (!exported.endsWith("Schema") || typeof schema !== "object" || !schema?._zod) continue;
    const name = exported.slice(0, -"Schema".length);
    registry.add(schema, { id: name });
    names.add(name);
  }
  const components = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    io: "input",
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`,
  }).schemas;
  // zod writes its own ISO pattern next to format "date-time" (UTC "Z" only); the OpenAPI description has
  // just the format, which RFC 3339 offsets such as "+00:00" satisfy, so the pattern goes
  const plain = (node) => {
    if (Array.isArray(node)) return node.forEach(plain);
    if (typeof node !== "object" || node === null) return;
    if (node.format === "date-time") delete node.pattern;
    Object.values(node).forEach(plain);
  };
  for (const schema of Object.values(components)) {
    delete schema.$id;
    delete schema.$schema;
    plain(schema);
  }

  // paths: the `Paths` interface of the TypeScript declarations
  const file = join(pkg, "build", "discord-api-spec.ts");
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const paths = {};
  const text = (node) => node.getText(source);
  const propName = (member) => (ts.isStringLiteral(member.name) ? member.name.text : text(member.name));

  const toSchema = (node) => {
    switch (node.kind) {
      case ts.SyntaxKind.StringKeyword:
        return { type: "string" };
      case ts.SyntaxKind.NumberKeyword:
        return { type: "number" };
      case ts.SyntaxKind.BooleanKeyword:
        return { type: "boolean" };
      case ts.SyntaxKind.UnknownKeyword:
      case ts.SyntaxKind.AnyKeyword:
        return {};
      case ts.SyntaxKind.NullKeyword:
        return { type: "null" };
    }
    if (ts.isParenthesizedTypeNode(node)) return toSchema(node.type);
    if (ts.isLiteralTypeNode(node)) {
      if (node.literal.kind === ts.SyntaxKind.NullKeyword) return { type: "null" };
      if (ts.isStringLiteral(node.literal)) return { const: node.literal.text };
      if (ts.isNumericLiteral(node.literal)) return { const: Number(node.literal.text) };
      if (node.literal.kind === ts.SyntaxKind.TrueKeyword) return { const: true };
      if (node.literal.kind === ts.SyntaxKind.FalseKeyword) return { const: false };
    }
    if (ts.isUnionTypeNode(node)) return { anyOf: node.types.map(toSchema) };
    if (ts.isArrayTypeNode(node)) return { type: "array", items: toSchema(node.elementType) };
    if (ts.isTypeReferenceNode(node)) {
      const name = text(node.typeName);
      if (!names.has(name)) throw new Error(`no schema for type ${name}`);
      return { $ref: `#/components/schemas/${name}` };
    }
    if (ts.isTypeLiteralNode(node)) {
      const schema = { type: "object", properties: {} };
      const required = [];
      for (const member of node.members) {
        if (ts.isIndexSignatureDeclaration(member)) {
          schema.additionalProperties = toSchema(member.type);
        } else if (ts.isPropertySignature(member)) {
          schema.properties[propName(member)] = toSchema(member.type);
          if (!member.questionToken) required.push(propName(member));
        }
      }
      if (required.length) schema.required = required;
      return schema;
    }
    throw new Error(`cannot convert ${ts.SyntaxKind[node.kind]}: ${text(node)}`);
  };

  const member = (typeLiteral, name) =>
    typeLiteral.members.find((m) => ts.isPropertySignature(m) && propName(m) === name);
  const isNever = (node) =>
    !node || node.kind === ts.SyntaxKind.NeverKeyword || node.kind === ts.SyntaxKind.UndefinedKeyword;

  const parameters = (operation) => {
    const found = [];
    const holder = member(operation, "parameters");
    for (const where of ["path", "query"]) {
      const group = holder && member(holder.type, where);
      if (!group || isNever(group.type)) continue;
      for (const parameter of group.type.members) {
        found.push({
          name: propName(parameter),
          in: where,
          required: where === "path" || !parameter.questionToken,
          schema: toSchema(parameter.type),
        });
      }
    }
    return found;
  };

  ts.forEachChild(source, (node) => {
    if (!ts.isInterfaceDeclaration(node) || node.name.text !== "Paths") return;
    for (const pathMember of node.members) {
      const path = propName(pathMember);
      paths[path] = {};
      for (const methodMember of pathMember.type.members) {
        const method = propName(methodMember);
        const operation = methodMember.type;
        const described = /\b\d{3} response for (\w+)/.exec(text(operation));
        const entry = { operationId: described ? described[1] : `${method}_${path}`, parameters: parameters(operation) };
        const body = member(operation, "requestBody");
        if (body && !isNever(body.type)) {
          entry.requestBody = {
            required: !body.questionToken,
            content: { "application/json": { schema: toSchema(body.type) } },
          };
        }
        paths[path][method] = entry;
      }
    }
  });

  const document = {
    openapi: "3.1.0",
    info: {
      title: "Discord HTTP API",
      version: "10",
      description:
        `Derived by generate.mjs from the npm package discord-api-spec@${installed} ` +
        "(generated from Discord's OpenAPI description). Only what a request needs: paths, methods, " +
        "parameters, request bodies and the component schemas they use.",
      license: { name: "MIT", identifier: "MIT" },
      "x-discord-api-spec-version": installed,
    },
    paths,
    components: { schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))) },
  };
  writeFileSync(join(here, "openapi.json"), JSON.stringify(document, null, 1) + "\n");
  copyFileSync(join(pkg, "LICENSE"), join(here, "LICENSE"));
  const operations = Object.values(paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
  console.log(`discord-api-spec@${installed}: ${Object.keys(paths).length} paths, ${operations} operations`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
