import type { Metadata } from 'next'
import { buildOpenApiDocument } from '@/lib/endpoints/openapi'

export const metadata: Metadata = { title: 'API reference' }

type OperationDoc = {
  operationId: string
  summary: string
  tags: string[]
  security?: unknown[]
  parameters: { name: string; in: string; required: boolean }[]
  requestBody?: { content: Record<string, { schema: unknown }> }
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>
}

const METHOD_COLORS: Record<string, string> = {
  get: 'bg-sky-100 text-sky-900',
  post: 'bg-emerald-100 text-emerald-900',
  put: 'bg-amber-100 text-amber-900',
  delete: 'bg-rose-100 text-rose-900',
}

function Schema({ label, content }: { label: string; content?: Record<string, { schema: unknown }> }) {
  if (!content) return null
  return (
    <details className="mt-2">
      <summary className="cursor-pointer text-sm text-stone-700">
        {label} <span className="font-mono text-xs">{Object.keys(content).join(', ')}</span>
      </summary>
      <pre className="mt-2 overflow-x-auto rounded bg-stone-900 p-3 font-mono text-xs text-stone-100">
        {JSON.stringify(Object.values(content)[0]?.schema, null, 2)}
      </pre>
    </details>
  )
}

// Rendered from the same document GET /api/openapi.json serves.
export default function ApiReferencePage() {
  const document = buildOpenApiDocument()
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation: operation as OperationDoc })),
  )
  const tags = [...new Set(operations.map(({ operation }) => operation.tags[0] ?? 'Other'))]
  return (
    <main className="mx-auto max-w-5xl px-6 py-12">
      <h1 className="text-3xl font-semibold tracking-tight">API reference</h1>
      <p className="mt-2 text-stone-700">
        Base URL <code className="font-mono">/api</code>. Errors are{' '}
        <code className="font-mono">{'{"error": {"code", "message"}}'}</code>. Machine-readable:{' '}
        <a className="text-sky-800 underline" href="/api/openapi.json">
          openapi.json
        </a>{' '}
        (OpenAPI {document.openapi}).
      </p>
      {tags.map((tag) => (
        <section key={tag} className="mt-10" aria-labelledby={`tag-${tag}`}>
          <h2 id={`tag-${tag}`} className="text-xl font-semibold">
            {tag}
          </h2>
          <ul className="mt-4 flex flex-col gap-3">
            {operations
              .filter(({ operation }) => operation.tags[0] === tag)
              .map(({ path, method, operation }) => (
                <li
                  key={operation.operationId}
                  id={operation.operationId}
                  className="rounded-lg border border-stone-200 bg-white p-4"
                >
                  <div className="flex flex-wrap items-center gap-3">
                    <span
                      className={`rounded px-2 py-0.5 font-mono text-xs font-semibold uppercase ${METHOD_COLORS[method] ?? ''}`}
                    >
                      {method}
                    </span>
                    <code className="font-mono text-sm">{path}</code>
                    {operation.security && <span className="text-xs text-stone-600">Bearer token</span>}
                  </div>
                  <p className="mt-2 text-sm">{operation.summary}</p>
                  <Schema label="Request body" content={operation.requestBody?.content} />
                  {Object.entries(operation.responses)
                    .filter(([status]) => status.startsWith('2'))
                    .map(([status, response]) => (
                      <Schema key={status} label={`Response ${status}`} content={response.content} />
                    ))}
                  <p className="mt-2 text-xs text-stone-600">
                    Errors:{' '}
                    {Object.keys(operation.responses)
                      .filter((status) => status.startsWith('4'))
                      .join(', ')}
                  </p>
                </li>
              ))}
          </ul>
        </section>
      ))}
    </main>
  )
}
