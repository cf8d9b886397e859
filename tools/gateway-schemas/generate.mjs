// Writes tests/data/gateway/dispatch-schemas.json: JSON Schema (draft 4, as RapidJSON 1.1's validator reads
// it) of the `d` of each Gateway dispatch the emulator sends. Run by tools/update-gateway-schemas, from the
// temporary directory the pinned packages are installed in (this file is copied there):
//   node generate.mjs <repository root>
// The working directory must be that install directory: ts-json-schema-generator names some generic
// instances by hashes of file paths relative to it; they are turned into declaration names here.

import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { createFormatter, createParser, createProgram, SchemaGenerator } from 'ts-json-schema-generator';

const repoRoot = process.argv[2];
if (!repoRoot) throw new Error('usage: node generate.mjs <repository root>');
const here = path.join(repoRoot, 'tools', 'gateway-schemas');
const outputPath = path.join(repoRoot, 'tests', 'data', 'gateway', 'dispatch-schemas.json');

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
const versionOf = (name) => readJson(path.join('node_modules', name, 'package.json')).version;
const versions = {
  'discord-api-types': versionOf('discord-api-types'),
  'ts-json-schema-generator': versionOf('ts-json-schema-generator'),
  typescript: versionOf('typescript'),
};
const apiTypes = `discord-api-types@${versions['discord-api-types']}`;

const discordEvents = readJson(path.join(here, 'discord-api-types-events.json')).events;
const social = readJson(path.join(here, 'social-sdk-events.json'));

const fail = (message) => {
  throw new Error(message);
};
const clone = (value) => JSON.parse(JSON.stringify(value));
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

// ---- generation ----------------------------------------------------------------------------------------

const config = {
  path: 'entry.ts',
  expose: 'export',
  topRef: true,
  jsDoc: 'none',
  skipTypeCheck: true, // tools/update-gateway-schemas runs tsc on entry.ts first
  sortProps: true,
};
const program = createProgram(config);
const generator = new SchemaGenerator(program, createParser(program, config), createFormatter(config), config);

const rawDefinitions = {}; // generator's names (unencoded) -> schema
const generate = (typeName) => {
  const schema = clone(generator.createSchema(typeName)); // as JSON: no undefined members
  for (const [name, definition] of Object.entries(schema.definitions ?? {})) {
    if (name in rawDefinitions && JSON.stringify(rawDefinitions[name]) !== JSON.stringify(definition))
      fail(`two different definitions named ${name}`);
    rawDefinitions[name] = definition;
  }
  if (!(typeName in rawDefinitions)) fail(`no definition for ${typeName}`);
};

const rawRef = (name) => ({ $ref: `#/definitions/${encodeURIComponent(name)}` });
const refName = (ref) => {
  if (!ref.startsWith('#/definitions/')) fail(`unexpected $ref ${ref}`);
  return decodeURIComponent(ref.slice('#/definitions/'.length));
};

// all_of_definitions: type aliases of entry.ts, each `A & B & ...` of other types, whose generated schema is
// replaced by allOf of the types' (the generator distributes some intersections over unions wrongly).
const allOfDefinitions = new Map(); // alias -> [type names]
const entryFile =
  program.getSourceFile(path.resolve(config.path)) ?? fail(`${config.path} is not in the program`);
function checkIntersectionAlias(alias, parts, where) {
  const declaration = entryFile.statements.find((s) => ts.isTypeAliasDeclaration(s) && s.name.text === alias);
  if (!declaration) fail(`${where}: ${config.path} declares no type alias ${alias}`);
  const node = declaration.type;
  const written = ts.isIntersectionTypeNode(node)
    ? node.types.map((t) =>
        ts.isTypeReferenceNode(t) && ts.isIdentifier(t.typeName) && !t.typeArguments ? t.typeName.text : '?',
      )
    : [];
  if (JSON.stringify(written) !== JSON.stringify(parts))
    fail(`${where}: ${alias} is not written as ${parts.join(' & ')} in ${config.path}`);
}

const events = {};
for (const [event, spec] of Object.entries(discordEvents)) {
  const entry = { source: `${apiTypes} ${spec.type}` };
  if (spec.null_data) {
    entry.source += ' (d: undefined, sent as null)';
    entry.schema = { type: 'null' };
  } else if (spec.all_of) {
    entry.source += ` (= ${spec.all_of.join(' & ')}, as allOf)`;
    spec.all_of.forEach(generate);
    entry.schema = { allOf: spec.all_of.map(rawRef) };
  } else {
    const name = spec.generate ?? spec.type;
    if (spec.generate) entry.source += ` (generated from tools/gateway-schemas/entry.ts ${spec.generate})`;
    generate(name);
    entry.schema = { $ref: rawRef(name).$ref };
  }
  for (const [alias, parts] of Object.entries(spec.all_of_definitions ?? {})) {
    const where = `${event} all_of_definitions.${alias}`;
    if (!Array.isArray(parts) || parts.length < 2) fail(`${where}: not a list of two or more types`);
    checkIntersectionAlias(alias, parts, where);
    if (allOfDefinitions.has(alias) && JSON.stringify(allOfDefinitions.get(alias)) !== JSON.stringify(parts))
      fail(`${where}: listed differently by another event`);
    allOfDefinitions.set(alias, parts);
    parts.forEach(generate);
    entry.source += `; ${alias} = ${parts.join(' & ')}, as allOf`;
  }
  entry.divergences = spec.divergences;
  events[event] = entry;
}
// restated_definitions: a package type whose generated schema is wrong -> the entry.ts interface that writes it
// out (tsc proved them identical); the definition becomes a $ref to the restatement's.
const restatedDefinitions = readJson(path.join(here, 'discord-api-types-events.json')).restated_definitions ?? {};
for (const restatement of Object.values(restatedDefinitions)) generate(restatement);
for (const [name, restatement] of Object.entries(restatedDefinitions)) {
  if (!(name in rawDefinitions)) fail(`restated_definitions: no generated type uses ${name}`);
  rawDefinitions[name] = rawRef(restatement);
}
// After all generation: generate() compares each definition with the generator's earlier one of that name.
for (const [alias, parts] of allOfDefinitions) {
  if (!(alias in rawDefinitions)) fail(`all_of_definitions: no generated type uses ${alias}`);
  rawDefinitions[alias] = { allOf: parts.map(rawRef) };
}

// ---- draft 4 for RapidJSON -----------------------------------------------------------------------------

const draft4Keywords = new Set([
  '$ref', 'type', 'properties', 'required', 'additionalProperties', 'patternProperties', 'items',
  'additionalItems', 'minItems', 'maxItems', 'uniqueItems', 'anyOf', 'allOf', 'oneOf', 'not', 'enum',
  'title', 'description', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'minLength', 'maxLength', 'minProperties', 'maxProperties', 'multipleOf', 'dependencies', 'default',
]);

// Rewrites one schema (in place where it is an object) and returns it: const -> one-value enum; no $schema
// or examples; boolean schemas -> {} / {"not": {}}; additionalProperties false (or true) removed: the platform
// adds members over time and the check is about required members and types.
function toDraft4(schema, where) {
  if (schema === true) return {};
  if (schema === false) return { not: {} };
  if (!isObject(schema)) fail(`${where}: not a schema: ${JSON.stringify(schema)}`);
  delete schema.$schema;
  delete schema.examples;
  if ('const' in schema) {
    if ('enum' in schema) fail(`${where}: const and enum`);
    schema.enum = [schema.const];
    delete schema.const;
  }
  if (typeof schema.additionalProperties === 'boolean') delete schema.additionalProperties;
  for (const key of Object.keys(schema)) {
    if (!draft4Keywords.has(key)) fail(`${where}: keyword ${key} is not draft 4`);
  }
  if (Array.isArray(schema.enum) && schema.enum.length === 0) fail(`${where}: empty enum (matches nothing)`);
  if ('pattern' in schema || 'patternProperties' in schema)
    fail(`${where}: regular expressions are not checked (RapidJSON 1.1's regex is limited); handle them first`);
  if (typeof schema.exclusiveMinimum === 'number' || typeof schema.exclusiveMaximum === 'number')
    fail(`${where}: draft 6 exclusiveMinimum/Maximum`);
  for (const key of ['properties', 'dependencies']) {
    if (!isObject(schema[key])) continue;
    for (const [name, sub] of Object.entries(schema[key])) {
      if (key === 'dependencies' && Array.isArray(sub)) continue;
      schema[key][name] = toDraft4(sub, `${where}.${key}.${name}`);
    }
  }
  for (const key of ['additionalProperties', 'additionalItems', 'not']) {
    if (key in schema && typeof schema[key] !== 'boolean') schema[key] = toDraft4(schema[key], `${where}.${key}`);
  }
  if ('items' in schema) {
    schema.items = Array.isArray(schema.items)
      ? schema.items.map((sub, i) => toDraft4(sub, `${where}.items[${i}]`))
      : toDraft4(schema.items, `${where}.items`);
  }
  for (const key of ['anyOf', 'allOf', 'oneOf']) {
    if (key in schema) schema[key] = schema[key].map((sub, i) => toDraft4(sub, `${where}.${key}[${i}]`));
  }
  return schema;
}

for (const [name, definition] of Object.entries(rawDefinitions)) {
  rawDefinitions[name] = toDraft4(definition, `definitions.${name}`);
  // Bit sets: TypeScript lets any number stand for a numeric enum (combinations of flags, 0), but the
  // generator lists the single bits, which would reject both.
  const d = rawDefinitions[name];
  if (/Flags$/.test(name) && Array.isArray(d.enum) && d.enum.every(Number.isInteger)) {
    rawDefinitions[name] = {
      type: 'integer',
      description: `bit set of ${name} (${d.enum.length} known bits); any combination, 0 included`,
    };
  }
}

// ---- divergences: required members the Social SDK form lacks -------------------------------------------

// Follows `path` (member names and '[]') from `schema`, copying each referenced definition inline on the way
// so that the shared definitions stay as discord-api-types has them, and drops the last member from the
// required lists it is in. Returns how many it dropped it from.
function dropRequired(schema, segments, where) {
  while (schema.$ref) {
    const inlined = clone(rawDefinitions[refName(schema.$ref)] ?? fail(`${where}: dangling ${schema.$ref}`));
    delete schema.$ref;
    Object.assign(schema, inlined);
  }
  let dropped = 0;
  for (const key of ['anyOf', 'allOf', 'oneOf']) {
    for (const sub of schema[key] ?? []) dropped += dropRequired(sub, segments, where);
  }
  const [first, ...rest] = segments;
  if (first === '[]') {
    if (isObject(schema.items)) dropped += dropRequired(schema.items, rest, where);
    return dropped;
  }
  if (rest.length === 0) {
    if (Array.isArray(schema.required) && schema.required.includes(first)) {
      schema.required = schema.required.filter((member) => member !== first);
      if (schema.required.length === 0) delete schema.required;
      dropped += 1;
    }
    return dropped;
  }
  if (isObject(schema.properties?.[first])) dropped += dropRequired(schema.properties[first], rest, where);
  return dropped;
}

for (const [event, entry] of Object.entries(events)) {
  if (!entry.divergences) {
    delete entry.divergences;
    continue;
  }
  for (const { member } of entry.divergences) {
    const segments = member.split(/\.|(?=\[\])|(?<=\[\])/).filter((s) => s !== '');
    if (dropRequired(entry.schema, segments, `${event} ${member}`) === 0)
      fail(`${event}: divergence ${member} is not a required member`);
  }
}

// ---- names: plain identifiers ---------------------------------------------------------------------------

// The generator names generic instances like `APIThreadChannel<enum-H-pos-end-H-pos-end-...>`: H hashes a file
// path (relative to the working directory), pos/end locate the declaration. Find the declarations.
function pathHash(text) {
  if (text.length < 20) return text;
  let h = 0;
  for (let i = 0; i < text.length; i++) {
    h = (h << 5) - h + text.charCodeAt(i);
    h &= h;
  }
  return String(h < 0 ? -h : h);
}
const filesByHash = new Map();
for (const file of program.getSourceFiles()) {
  const relative = file.fileName.substring(process.cwd().length + 1).replace(/\//g, '_');
  const key = pathHash(relative);
  if (filesByHash.has(key) && filesByHash.get(key) !== file) fail(`two files hash to ${key}`);
  filesByHash.set(key, file);
}
function declarationName(fileHash, pos, end) {
  const file = filesByHash.get(fileHash) ?? fail(`no file hashes to ${fileHash}`);
  let found;
  const visit = (node) => {
    if (found) return;
    if (node.pos === pos && node.end === end && node.name && ts.isIdentifier(node.name)) {
      found = ts.isEnumMember(node) ? `${node.parent.name.text}.${node.name.text}` : node.name.text;
      return;
    }
    if (node.pos <= pos && node.end >= end) ts.forEachChild(node, visit);
  };
  visit(file);
  return found ?? fail(`no named declaration at ${file.fileName}:${pos}-${end}`);
}
function plainName(raw) {
  const named = raw.replace(/(?:def-)*[a-z]+-(\d+)-(\d+)-(\d+)(?:-\d+)*/g, (_, h, pos, end) =>
    declarationName(h, Number(pos), Number(end)),
  );
  const plain = named
    .replace(/\|/g, '_or_')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(plain)) fail(`cannot make a plain name of ${raw}`);
  return plain;
}

// Only what the events use.
const used = new Set();
const collect = (value) => {
  if (Array.isArray(value)) return value.forEach(collect);
  if (!isObject(value)) return;
  for (const [key, sub] of Object.entries(value)) {
    if (key === '$ref' && typeof sub === 'string') {
      const name = refName(sub);
      if (!used.has(name)) {
        used.add(name);
        collect(rawDefinitions[name] ?? fail(`dangling ${sub}`));
      }
    } else {
      collect(sub);
    }
  }
};
Object.values(events).forEach((entry) => collect(entry.schema));

const names = new Map();
const taken = new Map();
for (const raw of [...used].sort()) {
  const plain = plainName(raw);
  if (taken.has(plain)) fail(`${raw} and ${taken.get(plain)} both become ${plain}`);
  taken.set(plain, raw);
  names.set(raw, plain);
}
const rename = (value) => {
  if (Array.isArray(value)) return value.map(rename);
  if (!isObject(value)) return value;
  const out = {};
  for (const [key, sub] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof sub === 'string' ? `#/definitions/${names.get(refName(sub))}` : rename(sub);
  }
  return out;
};

const definitions = {};
for (const raw of used) definitions[names.get(raw)] = rename(rawDefinitions[raw]);
for (const entry of Object.values(events)) entry.schema = rename(entry.schema);

// ---- the hand-written Social SDK events ------------------------------------------------------------------

for (const [name, definition] of Object.entries(social.definitions)) {
  if (name in definitions) fail(`social-sdk-events.json: definition ${name} clashes with a generated one`);
  definitions[name] = toDraft4(clone(definition), `social definitions.${name}`);
}
for (const [event, entry] of Object.entries(social.events)) {
  if (event in events) fail(`social-sdk-events.json: ${event} is generated from discord-api-types`);
  if (typeof entry.source !== 'string') fail(`social-sdk-events.json: ${event} has no source`);
  events[event] = { source: entry.source, schema: toDraft4(clone(entry.schema), `social ${event}`) };
}

// ---- checks and output ------------------------------------------------------------------------------------

const checkRefs = (value, where) => {
  if (Array.isArray(value)) return value.forEach((sub) => checkRefs(sub, where));
  if (!isObject(value)) return;
  for (const [key, sub] of Object.entries(value)) {
    if (key === '$ref') {
      const match = /^#\/definitions\/([A-Za-z][A-Za-z0-9_]*)$/.exec(sub);
      if (!match || !(match[1] in definitions)) fail(`${where}: bad or dangling $ref ${sub}`);
    } else {
      checkRefs(sub, where);
    }
  }
};
for (const [name, definition] of Object.entries(definitions)) checkRefs(definition, `definitions.${name}`);
for (const [event, entry] of Object.entries(events)) checkRefs(entry.schema, `events.${event}`);

const sorted = (object) => Object.fromEntries(Object.keys(object).sort().map((key) => [key, object[key]]));
const document = {
  generated_by:
    `tools/update-gateway-schemas (do not edit; regenerate): ${apiTypes}, ` +
    `ts-json-schema-generator@${versions['ts-json-schema-generator']}, typescript@${versions.typescript}, ` +
    'and tools/gateway-schemas/social-sdk-events.json',
  definitions: sorted(definitions),
  events: Object.fromEntries(
    Object.keys(events)
      .sort()
      .map((event) => {
        const { source, divergences, schema } = events[event];
        return [event, divergences ? { source, divergences, schema } : { source, schema }];
      }),
  ),
};
fs.mkdirSync(path.dirname(outputPath), { recursive: true });
fs.writeFileSync(outputPath, `${JSON.stringify(document, null, 2)}\n`);
console.log(
  `wrote ${path.relative(repoRoot, outputPath)}: ${Object.keys(events).length} events, ` +
    `${Object.keys(definitions).length} definitions`,
);
