// The consumers users run on ytt-rs's schema exports, each case checked against ytt:
//
// - ajv (strict mode, every option) with ajv-formats compiles the `-o json-schema`
//   document, and every `default` and `example` of the `-o openapi-v3` document is
//   valid against its (JSON Schema-converted) schema;
// - for every value of a case's `values.yml`, ytt's verdict (`--data-values-inspect`)
//   and the consumers' agree: a valid value is accepted by ajv (JSON Schema and OpenAPI)
//   and by the OpenAPI document's CEL rules (evaluated by @marcbachmann/cel-js with the
//   value bound as the Kubernetes API server binds it: null fields dropped, property
//   names escaped); an invalid one is rejected by ytt and by them;
// - yaml-language-server reports a diagnostic on a values file that breaks a rule and
//   none on a valid one.
//
// Usage: node check.mjs YTT OUTDIR CASE_DIR... (writes the OpenAPI documents to OUTDIR
// for openapi-spec-validator). Exit status 1 on any problem.

import {execFileSync, spawn} from 'node:child_process'
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {basename, join, resolve} from 'node:path'
import {pathToFileURL} from 'node:url'
import Ajv2020 from 'ajv/dist/2020.js'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import {evaluate} from '@marcbachmann/cel-js'
import YAML from 'yaml'

const [ytt, outDir, ...caseDirs] = process.argv.slice(2)
let problems = 0
let checks = 0
const problem = (msg) => {
  problems++
  console.error(`FAIL ${msg}`)
}

function run(args, cwd) {
  try {
    return {code: 0, out: execFileSync(ytt, args, {cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']})}
  } catch (e) {
    return {code: e.status ?? -1, out: e.stdout?.toString() ?? '', err: e.stderr?.toString() ?? ''}
  }
}

function exportDoc(dir, type) {
  const r = run(['-f', 'schema.yml', '--data-values-schema-inspect', '-o', `json,${type}`], dir)
  if (r.code !== 0) throw new Error(`${dir}: export ${type} failed: ${r.err}`)
  return JSON.parse(r.out)
}

/** An OpenAPI 3.0 schema as JSON Schema (nullable → a "null" type; example → examples). */
function oasToJsonSchema(s) {
  if (Array.isArray(s)) return s.map(oasToJsonSchema)
  if (s === null || typeof s !== 'object') return s
  const out = {}
  for (const [k, v] of Object.entries(s)) {
    if (k === 'nullable' || k === 'x-kubernetes-validations' || k === 'x-example-description') continue
    if (k === 'example') out.examples = [v]
    else if (k === 'properties') out.properties = Object.fromEntries(Object.entries(v).map(([p, ps]) => [p, oasToJsonSchema(ps)]))
    else if (k === 'default' || k === 'enum') out[k] = v
    else out[k] = oasToJsonSchema(v)
  }
  if (s.nullable) {
    if (typeof out.type === 'string') out.type = [out.type, 'null']
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null]
  }
  if (s.format === 'float') delete out.format
  return out
}

function newAjv() {
  const ajv = new Ajv2020({strict: true, allErrors: true, logger: {log() {}, warn(m) { throw new Error(`ajv warning: ${m}`) }, error(m) { throw new Error(m) }}})
  addFormats(ajv)
  return ajv
}

/** Every default and example of an OpenAPI document is valid against its own schema. */
function checkOwnValues(schema, path, ajv) {
  if (schema === null || typeof schema !== 'object') return
  const js = oasToJsonSchema(schema)
  const validate = ajv.compile(js)
  for (const [what, value] of [['default', schema.default], ['example', schema.example]]) {
    if (value === undefined) continue
    checks++
    if (!validate(value)) problem(`${path}: the ${what} ${JSON.stringify(value)} breaks its schema: ${ajv.errorsText(validate.errors)}`)
    if (schema['x-kubernetes-validations'] && value !== null) {
      for (const m of celFailures(schema, value)) problem(`${path}: the ${what} breaks the CEL rule ${m}`)
    }
  }
  for (const [k, v] of Object.entries(schema.properties ?? {})) checkOwnValues(v, `${path}.${k}`, ajv)
  if (schema.items) checkOwnValues(schema.items, `${path}[]`, ajv)
}

const RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while'])

/** A property name as the API server exposes it to CEL. */
function escape(name) {
  if (RESERVED.has(name)) return `__${name}__`
  return name.replaceAll('__', '__underscores__').replaceAll('.', '__dot__').replaceAll('-', '__dash__').replaceAll('/', '__slash__')
}

/** Calls into the Kubernetes CEL libraries, which @marcbachmann/cel-js does not have. */
const K8S_LIBRARY = /\b(quantity|isQuantity|url|isURL|ip|isIP|cidr|isCIDR|isSorted|sum|find|findAll)\s*\(/
const skippedRules = new Set()

/** The value as CEL sees it in Kubernetes: integers as ints, null fields absent. */
function bind(v, schema) {
  if (Array.isArray(v)) return v.map((x) => bind(x, schema?.items))
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'number' && Number.isInteger(v) && schema?.type !== 'number') return BigInt(v)
    return v
  }
  const out = {}
  for (const [k, x] of Object.entries(v)) {
    if (x === null) continue
    out[schema?.properties ? escape(k) : k] = bind(x, schema?.properties?.[k])
  }
  return out
}

/** The messages of the x-kubernetes-validations rules `value` breaks, everywhere. */
function celFailures(schema, value) {
  const out = []
  if (!schema || value === null || value === undefined) return out
  for (const r of schema['x-kubernetes-validations'] ?? []) {
    // a transition rule has no old value when an object is created
    if (/\boldSelf\b/.test(r.rule)) continue
    // the Kubernetes CEL libraries (quantities, URLs, IPs…) are not in the JavaScript
    // implementation: such a rule is checked by ytt's own tests, not here
    if (K8S_LIBRARY.test(r.rule)) {
      skippedRules.add(r.rule)
      continue
    }
    let ok
    try {
      ok = evaluate(r.rule, {self: bind(value, schema)}) === true
    } catch (e) {
      ok = false
    }
    if (!ok) out.push(r.message)
  }
  if (schema.properties && value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, s] of Object.entries(schema.properties)) if (k in value) out.push(...celFailures(s, value[k]))
  }
  if (Array.isArray(value)) for (const x of value) out.push(...celFailures(schema.items, x))
  return out
}

/** Diagnostics of yaml-language-server for each file (a values file with a schema modeline). */
async function lspDiagnostics(files) {
  const server = spawn(process.execPath, [resolve('node_modules/yaml-language-server/bin/yaml-language-server'), '--stdio'], {stdio: ['pipe', 'pipe', 'ignore']})
  let buf = Buffer.alloc(0)
  const waiting = new Map()
  const results = new Map()
  const send = (msg) => {
    const body = Buffer.from(JSON.stringify({jsonrpc: '2.0', ...msg}))
    server.stdin.write(`Content-Length: ${body.length}\r\n\r\n`)
    server.stdin.write(body)
  }
  server.stdout.on('data', (chunk) => {
    buf = Buffer.concat([buf, chunk])
    for (;;) {
      const head = buf.indexOf('\r\n\r\n')
      if (head < 0) return
      const len = Number(/Content-Length: (\d+)/i.exec(buf.subarray(0, head).toString())[1])
      if (buf.length < head + 4 + len) return
      const msg = JSON.parse(buf.subarray(head + 4, head + 4 + len).toString())
      buf = buf.subarray(head + 4 + len)
      if (msg.method === 'textDocument/publishDiagnostics') {
        results.set(msg.params.uri, msg.params.diagnostics)
        waiting.get(msg.params.uri)?.()
      } else if (msg.id !== undefined && msg.method) {
        // a request from the server (workspace/configuration, ...): answer with nothing
        send({id: msg.id, result: msg.method === 'workspace/configuration' ? msg.params.items.map(() => ({validate: true, schemas: {}})) : null})
      } else if (msg.id !== undefined) {
        waiting.get(`#${msg.id}`)?.()
      }
    }
  })
  const request = (id, method, params) => new Promise((ok) => { waiting.set(`#${id}`, ok); send({id, method, params}) })
  await request(1, 'initialize', {processId: process.pid, rootUri: null, capabilities: {textDocument: {publishDiagnostics: {}}}})
  send({method: 'initialized', params: {}})
  send({method: 'workspace/didChangeConfiguration', params: {settings: {yaml: {validate: true, schemaStore: {enable: false}}}}})
  const out = new Map()
  for (const f of files) {
    const uri = pathToFileURL(f).href
    // a first, empty publication may precede the validated one: keep the last in a while
    const done = new Promise((ok) => {
      let timer
      waiting.set(uri, () => { clearTimeout(timer); timer = setTimeout(ok, 1500) })
      setTimeout(ok, 15000)
    })
    send({method: 'textDocument/didOpen', params: {textDocument: {uri, languageId: 'yaml', version: 1, text: readFileSync(f, 'utf8')}}})
    await done
    out.set(f, results.get(uri))
  }
  server.kill()
  return out
}

const lspFiles = []
for (const dir of caseDirs) {
  const name = basename(dir)
  let js, oas
  try {
    js = exportDoc(dir, 'json-schema')
    oas = exportDoc(dir, 'openapi-v3')
  } catch (e) {
    problem(e.message)
    continue
  }
  // the documents as users get them (YAML), for openapi-spec-validator
  const yamlDoc = run(['-f', 'schema.yml', '--data-values-schema-inspect', '-o', 'openapi-v3'], dir).out
  writeFileSync(join(outDir, `${name}.openapi.yml`), yamlDoc)
  const schemaFile = join(outDir, `${name}.schema.json`)
  writeFileSync(schemaFile, JSON.stringify(js, null, 2))

  checks++
  let validateJs, validateOas
  try {
    validateJs = newAjv().compile(js)
  } catch (e) {
    problem(`${name}: ajv (strict) refuses the JSON Schema: ${e.message}`)
    continue
  }
  const dv = oas.components.schemas.dataValues
  try {
    const ajv = newAjv()
    validateOas = ajv.compile(oasToJsonSchema(dv))
    checkOwnValues(dv, `${name}:dataValues`, newAjv())
  } catch (e) {
    problem(`${name}: the OpenAPI schema does not compile as JSON Schema: ${e.message}`)
    continue
  }

  let values = []
  try {
    values = YAML.parse(readFileSync(join(dir, 'values.yml'), 'utf8')) ?? []
  } catch (e) {
    if (e.code !== 'ENOENT') problem(`${name}: values.yml: ${e.message}`)
  }
  let lspValid = null
  let lspInvalid = null
  for (const [i, c] of values.entries()) {
    const set = (c.set ?? []).flatMap((s) => ['--data-value-yaml', s])
    const base = ['-f', 'schema.yml', '--data-values-inspect', '-o', 'json', ...set]
    const label = `${name}: ${JSON.stringify(c.set ?? [])} (${c.valid ? 'valid' : `breaks ${c.rule}`})`
    const checked = run(base, dir)
    const loose = run([...base, '--dangerous-data-values-disable-validation'], dir)
    if (loose.code !== 0) {
      problem(`${label}: ytt could not compute the values: ${loose.err}`)
      continue
    }
    const instance = JSON.parse(loose.out)
    const yttOk = checked.code === 0
    const jsOk = validateJs(instance)
    const oasOk = validateOas(instance)
    const cel = celFailures(dv, instance)
    checks++
    if (c.valid) {
      if (!yttOk) problem(`${label}: ytt rejects it: ${checked.err}`)
      if (!jsOk) problem(`${label}: ajv (JSON Schema) rejects it: ${JSON.stringify(validateJs.errors)}`)
      if (!oasOk) problem(`${label}: ajv (OpenAPI schema) rejects it: ${JSON.stringify(validateOas.errors)}`)
      if (cel.length) problem(`${label}: CEL rules fail: ${cel.join('; ')}`)
      lspValid ??= instance
    } else {
      if (yttOk) problem(`${label}: ytt accepts it`)
      else if (c.rule && !checked.err.includes(c.rule)) problem(`${label}: ytt's report does not name the rule: ${checked.err}`)
      if (!c.cel && jsOk) problem(`${label}: ajv (JSON Schema) accepts it`)
      if (oasOk && cel.length === 0) problem(`${label}: the OpenAPI document (schema and CEL rules) accepts it`)
      if (c.cel && !cel.includes(c.cel)) problem(`${label}: the CEL rule "${c.cel}" does not fail (failed: ${cel.join('; ')})`)
      if (!c.cel) lspInvalid ??= instance
    }
  }
  const modeline = `# yaml-language-server: $schema=${pathToFileURL(schemaFile).href}\n`
  if (lspValid) {
    const f = join(outDir, `${name}.valid.yml`)
    writeFileSync(f, modeline + YAML.stringify(lspValid))
    lspFiles.push([f, true])
  }
  if (lspInvalid) {
    const f = join(outDir, `${name}.invalid.yml`)
    writeFileSync(f, modeline + YAML.stringify(lspInvalid))
    lspFiles.push([f, false])
  }
}

if (lspFiles.length) {
  const diags = await lspDiagnostics(lspFiles.map(([f]) => f))
  for (const [f, valid] of lspFiles) {
    const d = (diags.get(f) ?? []).filter((x) => (x.severity ?? 1) <= 2)
    checks++
    if (valid && d.length) problem(`${f}: yaml-language-server reports ${JSON.stringify(d.map((x) => x.message))} on a valid values file`)
    if (!valid && !d.length) problem(`${f}: yaml-language-server reports nothing on a values file that breaks a rule`)
  }
}

if (skippedRules.size) console.log(`CEL rules using Kubernetes libraries, left to ytt's tests: ${[...skippedRules].join('; ')}`)
console.log(`consumers: ${checks - problems} passed, ${problems} failed`)
process.exit(problems ? 1 : 0)
