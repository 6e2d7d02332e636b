// The conditions under which a vendor's print and filament presets suit a printer, in PrusaSlicer's
// own expression language (`compatible_printers_condition = printer_model=="MINI" and
// nozzle_diameter[0]!=0.8`): comparisons of settings with numbers, strings and /regular
// expressions/, joined by and, or and not. PrusaSlicer's GUI lists only what suits; the studio too.

/** A setting's value by name, undefined when the preset has no such setting. */
export type Lookup = (name: string) => string | undefined

type Value = string | number | boolean

const TOKEN =
  /\s*(?:(\d+(?:\.\d+)?)|"((?:[^"\\]|\\.)*)"|\/((?:[^/\\]|\\.)*)\/|(==|!=|<>|<=|>=|=~|!~|&&|\|\||[<>()![\]])|([A-Za-z_][A-Za-z0-9_]*))/y

type Token = { number: number } | { string: string } | { regex: string } | { op: string } | { name: string }

function tokenize(condition: string): Token[] {
  const tokens: Token[] = []
  TOKEN.lastIndex = 0
  while (TOKEN.lastIndex < condition.length) {
    if (condition.slice(TOKEN.lastIndex).trim() === '') break
    const start = TOKEN.lastIndex
    const match = TOKEN.exec(condition)
    if (!match) throw new Error(`cannot read the condition at ${JSON.stringify(condition.slice(start, start + 20))}`)
    const [, number, string, regex, op, name] = match
    if (number !== undefined) tokens.push({ number: Number(number) })
    else if (string !== undefined) tokens.push({ string: string.replace(/\\(.)/g, '$1') })
    else if (regex !== undefined) tokens.push({ regex })
    else if (name === 'and' || name === 'or' || name === 'not') tokens.push({ op: name })
    else if (op !== undefined) tokens.push({ op })
    else tokens.push({ name: name! })
  }
  return tokens
}

/** Whether a condition holds for the settings; an empty condition always does. Throws on one it cannot read. */
export function holds(condition: string, lookup: Lookup): boolean {
  const tokens = tokenize(condition)
  if (tokens.length === 0) return true
  let at = 0
  const isOp = (...ops: string[]) => {
    const token = tokens[at]
    return token !== undefined && 'op' in token && ops.includes(token.op)
  }
  const expect = (op: string) => {
    if (!isOp(op)) throw new Error(`expected ${op} in ${JSON.stringify(condition)}`)
    at++
  }

  const or = (): Value => {
    let value = and()
    while (isOp('or', '||')) {
      at++
      const right = and()
      value = truthy(value) || truthy(right)
    }
    return value
  }
  const and = (): Value => {
    let value = not()
    while (isOp('and', '&&')) {
      at++
      const right = not()
      value = truthy(value) && truthy(right)
    }
    return value
  }
  const not = (): Value => {
    if (!isOp('not', '!')) return comparison()
    at++
    return !truthy(not())
  }
  const comparison = (): Value => {
    const left = operand()
    if (!isOp('==', '!=', '<>', '<', '>', '<=', '>=', '=~', '!~')) return left
    const op = (tokens[at++] as { op: string }).op
    if (op === '=~' || op === '!~') {
      const token = tokens[at++]
      if (!token || !('regex' in token)) throw new Error(`expected a /regular expression/ after ${op}`)
      return new RegExp(`^(?:${token.regex})$`, 's').test(String(left)) === (op === '=~')
    }
    return compare(left, op, operand())
  }
  const operand = (): Value => {
    const token = tokens[at++]
    if (!token) throw new Error(`${JSON.stringify(condition)} ends too soon`)
    if ('number' in token) return token.number
    if ('string' in token) return token.string
    if ('op' in token && token.op === '(') {
      const value = or()
      expect(')')
      return value
    }
    if (!('name' in token)) throw new Error(`unexpected ${JSON.stringify(token)} in ${JSON.stringify(condition)}`)
    if (token.name === 'true' || token.name === 'false') return token.name === 'true'
    const setting = lookup(token.name)
    if (setting === undefined) throw new Error(`no setting is called ${token.name}`)
    if (!isOp('[')) return setting
    at++
    const index = tokens[at++]
    if (!index || !('number' in index)) throw new Error(`expected an index after ${token.name}[`)
    expect(']')
    return setting.split(/[,;]/)[index.number] ?? ''
  }

  const value = or()
  if (at < tokens.length) throw new Error(`unexpected text after ${JSON.stringify(condition)}`)
  return truthy(value)
}

function truthy(value: Value): boolean {
  if (typeof value === 'boolean') return value
  if (typeof value === 'number') return value !== 0
  return value !== '' && value !== '0' && value !== 'false'
}

function compare(left: Value, op: string, right: Value): boolean {
  const numbers = typeof left === 'number' || typeof right === 'number'
  const [a, b] = numbers ? [Number(left), Number(right)] : [String(left), String(right)]
  switch (op) {
    case '==':
      return a === b
    case '!=':
    case '<>':
      return a !== b
    case '<':
      return a < b
    case '>':
      return a > b
    case '<=':
      return a <= b
    default:
      return a >= b
  }
}
