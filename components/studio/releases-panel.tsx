'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import Link from 'next/link'
import { type FormEvent, useState } from 'react'
import { PreparationStatus } from '@/components/studio/preparation-status'
import { Button, buttonClasses } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Checkbox } from '@/components/ui/checkbox'
import { ErrorMessage } from '@/components/ui/error-message'
import { Field, Select, TextArea } from '@/components/ui/field'
import { Spinner } from '@/components/ui/spinner'
import { useApiQuery } from '@/components/use-api-query'
import { ApiError } from '@/lib/client/api-client'
import { callApiJson, operationKey, type OperationResult } from '@/lib/endpoints/client'

type Release = OperationResult<'listReleases'>[number]
type Comparison = OperationResult<'compareReleases'>
type DefaultsModel = NonNullable<Release['defaults']>

/** Publishing the draft, the releases customers may get, rolling back and comparing two of them. */
export function ReleasesPanel({ configuratorId }: { configuratorId: string }) {
  const queryClient = useQueryClient()
  const params = { configuratorId }
  const releases = useApiQuery('listReleases', { params })
  const current = releases.data?.find((release) => release.current)?.number ?? null
  const refresh = () => queryClient.invalidateQueries({ queryKey: operationKey('listReleases', { params }) })
  const rollBack = useMutation({
    mutationFn: (number: number) =>
      callApiJson('rollBackRelease', { params: { configuratorId, number: String(number) } }),
    onSettled: refresh,
  })
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <div className="flex flex-col gap-6">
        <Card aria-labelledby="publish-heading" className="flex flex-col gap-3">
          <h2 id="publish-heading" className="text-base font-semibold">
            Publish the draft
          </h2>
          <PreparationStatus configuratorId={configuratorId} />
          <PublishForm configuratorId={configuratorId} releases={releases.data} onPublished={refresh} />
          <Link href={`/configure/${configuratorId}?draft=1`} className={buttonClasses('ghost', 'self-start')}>
            Open the draft as a customer would
          </Link>
        </Card>
        {releases.data && releases.data.length >= 2 && (
          <CompareReleases configuratorId={configuratorId} releases={releases.data} />
        )}
      </div>
      <Card aria-labelledby="releases-heading" className="flex flex-col gap-3">
        <h2 id="releases-heading" className="text-base font-semibold">
          Releases
        </h2>
        <ErrorMessage error={releases.error ?? rollBack.error} />
        {releases.isPending && <Spinner label="Loading releases" />}
        {releases.data?.length === 0 && (
          <p className="text-sm text-stone-600">
            Never published: new sessions get the files as they are. Once you publish, they get the release, and your
            edits stay in the draft until the next.
          </p>
        )}
        <ol className="flex flex-col gap-2">
          {releases.data?.map((release) => (
            <li
              key={release.number}
              aria-label={`Release ${release.number}`}
              className="flex flex-col gap-1 rounded-md border border-stone-200 px-3 py-2"
            >
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-semibold">Release {release.number}</span>
                {release.current && (
                  <span className="rounded bg-emerald-100 px-1.5 py-0.5 text-xs font-medium text-emerald-900">
                    Customers get this
                  </span>
                )}
                <span className="text-xs text-stone-600">{release.createdAt}</span>
                {!release.current && (
                  <Button
                    variant="secondary"
                    className="ml-auto"
                    disabled={rollBack.isPending}
                    onClick={() => rollBack.mutate(release.number)}
                  >
                    {current !== null && release.number > current ? 'Go forward' : 'Roll back'} to release{' '}
                    {release.number}
                  </Button>
                )}
              </div>
              {release.note && <p className="text-sm text-stone-800">{release.note}</p>}
              <p className="text-xs text-stone-600">
                {release.files} {release.files === 1 ? 'file' : 'files'}, main file {release.mainFile}; the defaults:{' '}
                {describeDefaults(release.defaults)}
              </p>
              {release.overridden.length > 0 && (
                <p className="text-xs text-amber-900">
                  Published although these did not build:{' '}
                  {release.overridden.map((failure) => failure.build).join(', ')}.
                </p>
              )}
            </li>
          ))}
        </ol>
      </Card>
    </div>
  )
}

function describeDefaults(defaults: DefaultsModel | null): string {
  if (!defaults) return 'did not build'
  const { minX, maxX, minY, maxY, minZ, maxZ } = defaults.boundingBox
  const size = [maxX - minX, maxY - minY, maxZ - minZ].map((length) => length.toFixed(1)).join(' × ')
  return `${size} mm, ${(defaults.volume / 1000).toFixed(2)} cm³`
}

interface PublishFormProps {
  configuratorId: string
  releases: Release[] | undefined
  onPublished: () => void
}

function PublishForm({ configuratorId, releases, onPublished }: PublishFormProps) {
  const preparation = useApiQuery('getPreparation', { params: { configuratorId } })
  const [note, setNote] = useState('')
  const [override, setOverride] = useState(false)
  const publish = useMutation({
    mutationFn: () =>
      callApiJson('publishRelease', {
        params: { configuratorId },
        json: { note, override, ...(preparation.data?.draft && { draft: preparation.data.draft }) },
      }),
    onSuccess: () => {
      setNote('')
      setOverride(false)
    },
    onSettled: onPublished,
  })
  const hasFailures =
    (preparation.data?.failures.length ?? 0) > 0 ||
    preparation.data?.state === 'failed' ||
    preparation.data?.testDrive.samples.some((sample) => sample.outcome !== 'built')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    publish.mutate()
  }
  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-label="Publish">
      <Field label="What changed">
        {(control) => (
          <TextArea
            {...control}
            monospace={false}
            rows={2}
            value={note}
            onChange={(event) => setNote(event.target.value)}
            maxLength={2000}
          />
        )}
      </Field>
      {hasFailures && (
        <Checkbox
          label="Publish although some models do not build"
          checked={override}
          onChange={(event) => setOverride(event.target.checked)}
        />
      )}
      <ErrorMessage error={publish.error && inDesignersWords(publish.error, preparation.data)} />
      {publish.data && isStillCurrent(publish.data.number, releases) && (
        <p role="status" className="text-sm text-emerald-900">
          Published release {publish.data.number}: new sessions get it now.
        </p>
      )}
      <Button type="submit" className="self-start" disabled={publish.isPending}>
        {publish.isPending ? 'Publishing…' : 'Publish'}
      </Button>
    </form>
  )
}

/** Whether customers still get the release: true until the list shows another one current (a rollback). */
function isStillCurrent(number: number, releases: Release[] | undefined): boolean {
  return releases?.find((release) => release.number === number)?.current ?? true
}

/** The API's refusals to publish, said as the designer acts on them here (the API keeps its own words). */
function inDesignersWords(error: Error, preparation: OperationResult<'getPreparation'> | undefined): Error {
  if (!(error instanceof ApiError)) return error
  if (error.status === 409 && /being prepared/.test(error.message))
    return new Error(
      'Not published: the draft is still being prepared (its defaults, presets and test drive). Publish again once it is done.',
    )
  if (error.status === 422 && error.fields.some(({ path }) => path[0] === 'override')) {
    const samples = preparation?.testDrive.samples.filter((sample) => sample.outcome !== 'built').length ?? 0
    const failed = [
      ...(preparation?.failures.map(({ build }) => build) ?? []),
      ...(samples > 0 ? [`${samples} test drive ${samples === 1 ? 'sample' : 'samples'}`] : []),
    ]
    const names =
      failed.length > 0
        ? failed.slice(0, -1).join(', ') + (failed.length > 1 ? ' and ' : '') + failed.at(-1)
        : 'some models'
    return new Error(
      `Not published: ${names} did not build. Tick “Publish although some models do not build” to publish it anyway.`,
    )
  }
  return error
}

function CompareReleases({ configuratorId, releases }: { configuratorId: string; releases: Release[] }) {
  const [from, setFrom] = useState(releases[1]!.number)
  const [to, setTo] = useState(releases[0]!.number)
  const comparison = useApiQuery('compareReleases', {
    params: { configuratorId },
    query: { from: String(from), to: String(to) },
  })
  const numbers = releases.map((release) => release.number)
  return (
    <Card aria-labelledby="compare-heading" className="flex flex-col gap-3">
      <h2 id="compare-heading" className="text-base font-semibold">
        Compare releases
      </h2>
      <div className="flex gap-3">
        <ReleaseSelect label="From" numbers={numbers} value={from} onChange={setFrom} />
        <ReleaseSelect label="To" numbers={numbers} value={to} onChange={setTo} />
      </div>
      <ErrorMessage error={comparison.error} />
      {comparison.data && <ComparisonView comparison={comparison.data} />}
    </Card>
  )
}

function ReleaseSelect({
  label,
  numbers,
  value,
  onChange,
}: {
  label: string
  numbers: number[]
  value: number
  onChange: (number: number) => void
}) {
  return (
    <Field label={label}>
      {(control) => (
        <Select {...control} value={value} onChange={(event) => onChange(Number(event.target.value))}>
          {numbers.map((number) => (
            <option key={number} value={number}>
              Release {number}
            </option>
          ))}
        </Select>
      )}
    </Field>
  )
}

function ComparisonView({ comparison }: { comparison: Comparison }) {
  const { files, parameters, defaults } = comparison
  const parameterChanges = [
    ...Object.keys(parameters.added).map((key) => `${key} added`),
    ...Object.keys(parameters.removed).map((key) => `${key} removed`),
    ...Object.entries(parameters.changed).map(([key, { from, to }]) => `${key}: ${describeParameterChange(from, to)}`),
  ]
  return (
    <section
      aria-label={`Changes from release ${comparison.from} to release ${comparison.to}`}
      className="flex flex-col gap-3 text-sm"
    >
      <p>
        The defaults: {describeDefaults(defaults.from)} → {describeDefaults(defaults.to)}
      </p>
      <div>
        <h3 className="font-medium">Parameters</h3>
        {parameterChanges.length === 0 ? (
          <p className="text-stone-600">No change.</p>
        ) : (
          <ul className="list-disc pl-5">
            {parameterChanges.map((change) => (
              <li key={change}>{change}</li>
            ))}
          </ul>
        )}
      </div>
      <div>
        <h3 className="font-medium">Files</h3>
        {files.length === 0 && <p className="text-stone-600">No change.</p>}
        {files.map((file) => (
          <details key={file.path} open>
            <summary className="cursor-pointer font-mono text-xs">
              {file.path} ({file.change})
            </summary>
            {file.diff === null ? (
              <p className="text-stone-600">Not shown: {file.noDiff}.</p>
            ) : (
              // Focusable so keyboard users can scroll it.
              <pre
                tabIndex={0}
                aria-label={`Diff of ${file.path}`}
                className="mt-1 max-h-80 overflow-auto rounded bg-stone-50 p-2 font-mono text-xs"
              >
                {file.diff
                  .split('\n')
                  .slice(4)
                  .map((line, index) => (
                    <span
                      key={index}
                      className={`block ${line.startsWith('+') ? 'bg-emerald-50 text-emerald-900' : line.startsWith('-') ? 'bg-red-50 text-red-900' : ''}`}
                    >
                      {line || ' '}
                    </span>
                  ))}
              </pre>
            )}
          </details>
        ))}
      </div>
    </section>
  )
}

function describeParameterChange(from: Record<string, unknown>, to: Record<string, unknown>): string {
  return Object.keys({ ...from, ...to })
    .filter((field) => field !== 'value' && JSON.stringify(from[field]) !== JSON.stringify(to[field]))
    .map((field) => `${field} ${JSON.stringify(from[field])} → ${JSON.stringify(to[field])}`)
    .join(', ')
}
