import { StreamLanguage, type StreamParser, type StringStream } from '@codemirror/language'

const KEYWORDS = new Set([
  'module',
  'function',
  'if',
  'else',
  'for',
  'let',
  'each',
  'include',
  'use',
  'echo',
  'assert',
  'intersection_for',
])

const BUILTINS = new Set([
  // 3D and 2D primitives
  'cube',
  'sphere',
  'cylinder',
  'polyhedron',
  'square',
  'circle',
  'polygon',
  'text',
  'import',
  'surface',
  // transformations and operations
  'translate',
  'rotate',
  'scale',
  'resize',
  'mirror',
  'multmatrix',
  'color',
  'offset',
  'hull',
  'minkowski',
  'union',
  'difference',
  'intersection',
  'linear_extrude',
  'rotate_extrude',
  'projection',
  'render',
  'children',
  'parent_module',
  // functions
  'abs',
  'sign',
  'sin',
  'cos',
  'tan',
  'asin',
  'acos',
  'atan',
  'atan2',
  'floor',
  'round',
  'ceil',
  'ln',
  'log',
  'pow',
  'sqrt',
  'exp',
  'len',
  'min',
  'max',
  'norm',
  'cross',
  'concat',
  'lookup',
  'str',
  'chr',
  'ord',
  'search',
  'rands',
  'version',
  'version_num',
  'is_undef',
  'is_bool',
  'is_num',
  'is_string',
  'is_list',
  'is_function',
  'is_object',
  'object',
  'textmetrics',
  'fontmetrics',
  'dxf_dim',
  'dxf_cross',
  'PI',
])

const CLOSING = /^[)\]}]/

interface OpenscadState {
  depth: number
  isInBlockComment: boolean
  isInString: boolean
  /** After `include` or `use`: a `<path>` follows. */
  isBeforePath: boolean
  /** After `module` or `function`: the name being defined follows. */
  isBeforeName: boolean
}

function continueBlockComment(stream: StringStream, state: { isInBlockComment: boolean }): string {
  state.isInBlockComment = !stream.skipTo('*/')
  if (state.isInBlockComment) stream.skipToEnd()
  else stream.pos += 2
  return 'comment'
}

/** The rest of a string literal (OpenSCAD's may span lines), its escapes included. */
function continueString(stream: StringStream, state: { isInString: boolean }): string {
  let next: string | void
  while ((next = stream.next()) !== undefined) {
    if (next === '\\') stream.next()
    else if (next === '"') {
      state.isInString = false
      return 'string'
    }
  }
  state.isInString = true
  return 'string'
}

function readNumber(stream: StringStream): boolean {
  return stream.match(/^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/) !== null
}

function bracketDepth(stream: StringStream, state: { depth: number }): string {
  const bracket = stream.next()
  state.depth = Math.max(0, state.depth + ('([{'.includes(bracket!) ? 1 : -1))
  return bracket === '(' || bracket === ')' ? 'paren' : bracket === '[' || bracket === ']' ? 'squareBracket' : 'brace'
}

function indentOf(state: { depth: number }, textAfter: string, unit: number): number {
  return Math.max(0, state.depth - (CLOSING.test(textAfter) ? 1 : 0)) * unit
}

export const openscadParser: StreamParser<OpenscadState> = {
  name: 'openscad',
  startState: () => ({
    depth: 0,
    isInBlockComment: false,
    isInString: false,
    isBeforePath: false,
    isBeforeName: false,
  }),
  token(stream, state) {
    if (state.isInBlockComment) return continueBlockComment(stream, state)
    if (state.isInString) return continueString(stream, state)
    if (stream.eatSpace()) return null
    if (state.isBeforePath) {
      state.isBeforePath = false
      if (stream.match(/^<[^>\n]*>?/)) return 'string.special'
    }
    if (stream.match('//')) {
      stream.skipToEnd()
      return 'comment'
    }
    if (stream.match('/*')) return continueBlockComment(stream, state)
    if (stream.eat('"')) return continueString(stream, state)
    if (readNumber(stream)) return 'number'
    if (stream.match(/^\$[A-Za-z_]\w*/)) return 'variableName.special'
    const word = stream.match(/^[A-Za-z_]\w*/) as RegExpMatchArray | null
    if (word) {
      const name = word[0]
      const isDefinition = state.isBeforeName
      state.isBeforeName = name === 'module' || name === 'function'
      state.isBeforePath = name === 'include' || name === 'use'
      if (KEYWORDS.has(name)) return 'keyword'
      if (name === 'true' || name === 'false') return 'bool'
      if (name === 'undef') return 'null'
      if (isDefinition) return 'variableName.definition'
      return BUILTINS.has(name) ? 'variableName.standard' : 'variableName'
    }
    state.isBeforeName = false
    if (/[()[\]{}]/.test(stream.peek() ?? '')) return bracketDepth(stream, state)
    if (stream.eat(/[,;.]/)) return 'punctuation'
    if (stream.match(/^(?:<=|>=|==|!=|&&|\|\||[-+*/%^<>=!?:#])/)) return 'operator'
    stream.next()
    return 'invalid'
  },
  indent: (state, textAfter, context) => indentOf(state, textAfter, context.unit),
  languageData: {
    commentTokens: { line: '//', block: { open: '/*', close: '*/' } },
    closeBrackets: { brackets: ['(', '[', '{', '"'] },
    indentOnInput: /^\s*[)\]}]$/,
  },
}

interface JsonState {
  depth: number
  isInString: boolean
}

export const jsonParser: StreamParser<JsonState> = {
  name: 'json',
  startState: () => ({ depth: 0, isInString: false }),
  token(stream, state) {
    if (state.isInString) return continueString(stream, state)
    if (stream.eatSpace()) return null
    if (stream.match(/^"(?:[^"\\]|\\.)*"(?=\s*:)/)) return 'propertyName'
    if (stream.eat('"')) return continueString(stream, state)
    if (stream.match(/^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/)) return 'number'
    if (stream.match(/^(?:true|false)\b/)) return 'bool'
    if (stream.match(/^null\b/)) return 'null'
    if (/[[\]{}]/.test(stream.peek() ?? '')) return bracketDepth(stream, state)
    if (stream.eat(/[,:]/)) return 'punctuation'
    stream.next()
    return 'invalid'
  },
  indent: (state, textAfter, context) => indentOf(state, textAfter, context.unit),
  languageData: { closeBrackets: { brackets: ['[', '{', '"'] }, indentOnInput: /^\s*[\]}]$/ },
}

export const openscad = StreamLanguage.define(openscadParser)
export const json = StreamLanguage.define(jsonParser)
