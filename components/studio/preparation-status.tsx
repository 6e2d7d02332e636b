'use client'

import { refusalOf } from '@/components/configurator/refusals'
import { Spinner } from '@/components/ui/spinner'
import { useApiQuery } from '@/components/use-api-query'
import type { OperationResult } from '@/lib/endpoints/client'

/** What the preparation built: of `builds` (the defaults, then each preset) `failed` did not build. */
export function describeBuilds(builds: number, failed: number): string {
  const which = builds === 1 ? 'the defaults' : 'the defaults and each preset'
  if (failed === 0) return `${builds} ${builds === 1 ? 'model' : 'models'} (${which}) built.`
  if (failed === builds)
    return builds === 1 ? 'the defaults did not build:' : `none of ${builds} models (${which}) built:`
  return `${builds - failed} of ${builds} models (${which}) built, ${failed} did not:`
}

type PreparationRefusals = OperationResult<'getPreparation'>['refusals']['maps'][number]

const rangeText = ({ from, to }: { from: number; to: number }) => (from === to ? `${from}` : `${from}–${to}`)

/**
 * What the preparation's maps say (docs/refused-values.md): each range and option the model refuses
 * at the defaults ("hole: 33–100 refused at the defaults: ..."), each preset whose own value the
 * model refuses at that preset's values, and what could not be searched.
 */
export function describeRefusals(maps: PreparationRefusals[]) {
  const refused: string[] = []
  const presets: string[] = []
  const unsearched: string[] = []
  for (const { build, values, parameters, complete } of maps) {
    const at = `at ${build}${complete ? '' : ' (the search was cut short)'}`
    if (build !== 'the defaults') {
      // At refused values each parameter's own value is refused, mostly for one reason: the preset is named once per reason.
      const byMessage = new Map<string, string[]>()
      for (const [key, refusals] of Object.entries(parameters)) {
        const own = refusalOf({ values, refusals }, key, values[key]!)
        if (own) byMessage.set(own, [...(byMessage.get(own) ?? []), `${key} = ${JSON.stringify(values[key])}`])
      }
      for (const [message, settings] of byMessage)
        presets.push(
          `${build.replace(/^preset/, 'The preset')} sits where the model refuses values (${settings.join(', ')}): ${message}`,
        )
      continue
    }
    for (const [key, refusals] of Object.entries(parameters)) {
      if (!refusals.searched) unsearched.push(`${key}: ${refusals.reason}`)
      else if ('components' in refusals)
        refusals.components.forEach(({ ranges }, index) =>
          refused.push(
            ...ranges.map((range) => `${key}[${index}]: ${rangeText(range)} refused ${at}: ${range.message}`),
          ),
        )
      else
        refused.push(
          ...refusals.ranges.map((range) => `${key}: ${rangeText(range)} refused ${at}: ${range.message}`),
          ...refusals.options.map(
            (option) => `${key}: ${JSON.stringify(option.value)} refused ${at}: ${option.message}`,
          ),
        )
    }
  }
  return { refused, presets, unsearched }
}

/** Where the background preparation of the model stands after the last change: customers' first models come from it. */
export function PreparationStatus({ configuratorId }: { configuratorId: string }) {
  const preparation = useApiQuery(
    'getPreparation',
    { params: { configuratorId } },
    {
      // A change anywhere (another tab, the API) starts a new preparation: asked again now and then.
      refetchInterval: (query) =>
        query.state.data?.state === 'preparing' || query.state.data?.refusals.done === false ? 1000 : 3000,
    },
  )
  const state = preparation.data
  if (!state || state.state === 'none') return null
  const seconds = state.durationMs === null ? '' : ` in ${(state.durationMs / 1000).toFixed(1)} s`
  const { samples, done } = state.testDrive
  const problems = samples.filter((sample) => sample.outcome !== 'built')
  return (
    <div className="flex flex-col gap-2">
      <p role="status" aria-label="Preparation" className="text-sm text-stone-700">
        {state.state === 'preparing' && (
          <Spinner label="Preparing the model for customers: reading its parameters, building its defaults and presets…" />
        )}
        {state.state === 'ready' &&
          `Prepared for customers${seconds}: ${describeBuilds(state.builds, state.failedBuilds)}`}
        {state.state === 'failed' && `The preparation failed${seconds}: ${state.message}`}
      </p>
      {state.failures.length > 0 && (
        <ul aria-label="Models that did not build" className="flex flex-col gap-1 text-sm">
          {state.failures.map(({ build, message, log }) => (
            <li key={build} className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-900">
              <span className="font-medium">{build.charAt(0).toUpperCase() + build.slice(1)}</span>:{' '}
              <span className="font-mono text-xs">{message}</span>
              <details className="mt-1 text-xs">
                <summary className="cursor-pointer">Full log</summary>
                <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap">{log}</pre>
              </details>
            </li>
          ))}
        </ul>
      )}
      <RefusedValues state={state} />
      {samples.length > 0 && (
        <section aria-label="Test drive" className="text-sm text-stone-700">
          <p>
            Test drive: {samples.length} random {samples.length === 1 ? 'combination' : 'combinations'} of values
            {done ? '' : ' so far'}, {problems.length === 0 ? 'all built.' : `${problems.length} did not build:`}
          </p>
          {problems.length > 0 && (
            <ul className="mt-1 flex flex-col gap-1">
              {problems.map(({ values, outcome, message }) => (
                <li key={JSON.stringify(values)} className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2">
                  <span className="font-medium">{outcome === 'time limit' ? 'Ran past the time limit' : 'Failed'}</span>{' '}
                  with{' '}
                  <span className="font-mono text-xs">
                    {Object.entries(values)
                      .map(([key, value]) => `${key} = ${JSON.stringify(value)}`)
                      .join(', ')}
                  </span>
                  {message && <span className="block text-xs text-stone-600">{message}</span>}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  )
}

/** Where the model refuses values at the defaults and presets, once the preparation has searched them. */
function RefusedValues({ state }: { state: OperationResult<'getPreparation'> }) {
  if (state.state !== 'ready') return null
  // After the test drive: nothing to say before it ends.
  if (!state.testDrive.done) return null
  const searching = !state.refusals.done
  const { refused, presets, unsearched } = describeRefusals(state.refusals.maps)
  return (
    <section aria-label="Refused values" className="flex flex-col gap-1 text-sm text-stone-700">
      {searching ? (
        <Spinner label="Searching where the model refuses values at the defaults and presets…" />
      ) : (
        <p>
          {refused.length === 0
            ? 'The model refuses no value of its sliders and options at the defaults.'
            : 'Where the model refuses values (customers see it on the sliders):'}
        </p>
      )}
      {[...presets, ...refused].length > 0 && (
        <ul className="flex flex-col gap-1">
          {presets.map((line) => (
            <li key={line} className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-900">
              {line}
            </li>
          ))}
          {refused.map((line) => (
            <li key={line} className="rounded-md border border-stone-200 bg-stone-50 px-3 py-2">
              {line}
            </li>
          ))}
        </ul>
      )}
      {unsearched.length > 0 && (
        <details className="text-xs text-stone-600">
          <summary className="cursor-pointer">Not searched ({unsearched.length})</summary>
          <ul className="mt-1 list-disc pl-5">
            {unsearched.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  )
}
