'use client'

import { type InputHTMLAttributes, useEffect, useId, useState } from 'react'
import { describedByIds, Field, FieldNotes, Input, Select } from '@/components/ui/field'
import { FOCUS_RING } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import type { Values } from '@/components/configurator/share-values'
import { type KnownRefusals, refusalOf } from '@/components/configurator/refusals'
import type { ParameterValue, RefusedRange } from '@/lib/cad/engine'
import type { ParameterSet } from '@/lib/sessions/schemas'

type Parameter = ParameterSet[string]
type Range = Pick<Extract<Parameter, { type: 'float' | 'vector' }>, 'min' | 'max' | 'step'>

interface ParameterControlsProps {
  parameters: ParameterSet
  values: Values
  errors: Record<string, string>
  /** Each parameter's map of refused values that holds at `values` (refusals.ts). */
  refusals: Record<string, KnownRefusals>
  onChange: (key: string, value: ParameterValue) => void
  /** A slider was let go: what changed may be sent at once instead of after the pause for more. */
  onCommit: () => void
  /** Stores a file in the session and answers its id, the value of a file parameter. */
  onUpload: (file: File) => Promise<string>
}

/** The model's parameters as labelled controls, in the model's groups and order. */
export function ParameterControls({
  parameters,
  values,
  errors,
  refusals,
  onChange,
  onCommit,
  onUpload,
}: ParameterControlsProps) {
  // The parameter the customer set last: where a value just picked is refused, only it says so (at
  // refused values every other parameter's value is refused too, with the same message).
  const [picked, setPicked] = useState<string | null>(null)
  const groups = new Map<string, [string, Parameter][]>()
  for (const entry of Object.entries(parameters)) {
    const group = entry[1].group || 'Parameters'
    groups.set(group, [...(groups.get(group) ?? []), entry])
  }
  return (
    <div className="flex flex-col gap-5">
      {[...groups].map(([group, entries]) => (
        <fieldset key={group} className="flex flex-col gap-4">
          <legend className="mb-2 text-xs font-semibold uppercase tracking-wide text-stone-500">{group}</legend>
          {entries.map(([key, parameter]) => {
            const value = values[key] ?? parameter.value
            const refusedAt = (candidate: ParameterValue) => refusalOf(refusals[key], key, candidate)
            const map = refusals[key]?.refusals
            return (
              <div key={key} className="flex flex-col gap-1">
                <ParameterControl
                  parameter={parameter}
                  value={value}
                  error={errors[key] ?? null}
                  refusedAt={refusedAt}
                  refusedRanges={map?.searched && 'ranges' in map ? map.ranges : []}
                  onChange={(changed) => {
                    setPicked(key)
                    onChange(key, changed)
                  }}
                  onCommit={onCommit}
                  onUpload={onUpload}
                />
                <RefusedNote
                  testId={`refused-${key}`}
                  message={key !== picked || errors[key] ? null : refusedAt(value)}
                />
              </div>
            )
          })}
        </fieldset>
      ))}
    </div>
  )
}

interface ParameterControlProps {
  parameter: Parameter
  value: ParameterValue
  error: string | null
  /** The designer's message when the model refuses this value at the others; null when it does not or nobody knows yet. */
  refusedAt: (value: ParameterValue) => string | null
  refusedRanges: RefusedRange[]
  onChange: (value: ParameterValue) => void
  onCommit: () => void
  onUpload: (file: File) => Promise<string>
}

function ParameterControl({
  parameter,
  value,
  error,
  refusedAt,
  refusedRanges,
  onChange,
  onCommit,
  onUpload,
}: ParameterControlProps) {
  const hint = parameter.caption || undefined
  switch (parameter.type) {
    case 'float':
      return (
        <NumberControl
          parameter={parameter}
          value={typeof value === 'number' ? value : Number(value)}
          error={error}
          refusedRanges={refusedRanges}
          onChange={onChange}
          onCommit={onCommit}
        />
      )
    case 'vector':
      return (
        <VectorControl
          parameter={parameter}
          value={Array.isArray(value) ? value : parameter.value}
          error={error}
          onChange={onChange}
        />
      )
    case 'bool': {
      const otherRefused = refusedAt(value !== true)
      return (
        <Checkbox
          label={parameter.name}
          hint={
            otherRefused ? (
              <>
                {hint && <span className="block">{hint}</span>}
                <span className="block">{`Refused ${value === true ? 'off' : 'on'}: ${otherRefused}`}</span>
              </>
            ) : (
              hint
            )
          }
          checked={value === true}
          error={error}
          onChange={(event) => onChange(event.target.checked)}
        />
      )
    }
    case 'choice': {
      const { options } = parameter
      const index = options.findIndex((option) => option.value === value)
      return (
        <Field label={parameter.name} hint={hint} error={error}>
          {(control) => (
            <Select
              {...control}
              value={index}
              onChange={(event) => onChange(options[Number(event.target.value)]?.value ?? parameter.default)}
            >
              {index < 0 && <option value={-1}>{String(value)}</option>}
              {options.map((option, optionIndex) => (
                <option key={String(option.value)} value={optionIndex}>
                  {refusedAt(option.value) ? `${option.label} (refused: ${refusedAt(option.value)})` : option.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
      )
    }
    case 'string':
      return (
        <Field label={parameter.name} hint={hint} error={error}>
          {(control) => (
            <div className="flex items-center gap-2">
              <Input
                {...control}
                type="text"
                value={String(value)}
                maxLength={parameter.maxLength ?? undefined}
                onChange={(event) => onChange(event.target.value)}
              />
              {parameter.maxLength !== null && (
                <span
                  data-testid={`length-${parameter.name}`}
                  aria-live="polite"
                  className="flex-none text-xs tabular-nums text-stone-600"
                >
                  {String(value).length}/{parameter.maxLength}
                </span>
              )}
            </div>
          )}
        </Field>
      )
    case 'file':
      return (
        <FileControl
          label={parameter.name}
          hint={hint}
          value={String(value)}
          error={error}
          onChange={onChange}
          onUpload={onUpload}
        />
      )
  }
}

interface NumberControlProps {
  parameter: Extract<Parameter, { type: 'float' }>
  value: number
  error: string | null
  refusedRanges: RefusedRange[]
  onChange: (value: number) => void
  onCommit: () => void
}

function NumberControl({ parameter, value, error, refusedRanges, onChange, onCommit }: NumberControlProps) {
  const hasRange = typeof parameter.min === 'number' && typeof parameter.max === 'number'
  return (
    <Field label={parameter.name} hint={parameter.caption || undefined} error={error}>
      {(control) => (
        <div className="flex items-start gap-3">
          {hasRange && (
            <div className="flex flex-1 flex-col pt-3.5">
              <input
                type="range"
                aria-label={parameter.name}
                aria-describedby={
                  [control['aria-describedby'], refusedRanges.length > 0 && `${control.id}-refused`]
                    .filter(Boolean)
                    .join(' ') || undefined
                }
                min={parameter.min ?? undefined}
                max={parameter.max ?? undefined}
                step={parameter.step ?? 'any'}
                // A refused value (typed out of range) is the input's alone: the slider shows the model's.
                value={error === null && Number.isFinite(value) ? value : parameter.value}
                onChange={(event) => onChange(event.target.valueAsNumber)}
                onPointerUp={onCommit}
                onKeyUp={onCommit}
                className={`h-2 w-full cursor-pointer accent-stone-900 ${FOCUS_RING}`}
              />
              {refusedRanges.length > 0 && (
                <RefusedTrack
                  id={`${control.id}-refused`}
                  name={parameter.name}
                  min={parameter.min!}
                  max={parameter.max!}
                  ranges={refusedRanges}
                />
              )}
            </div>
          )}
          <div className={hasRange ? 'w-24 flex-none' : 'flex-1'}>
            <NumberInput {...control} range={parameter} value={value} onChange={onChange} />
          </div>
        </div>
      )}
    </Field>
  )
}

/** What the range says of a refused range: its ends, and the designer's message. */
const rangeText = ({ from, to, message }: RefusedRange) => `${from === to ? from : `${from}–${to}`} refused: ${message}`

/**
 * A slider's refused ranges, hatched on a strip under its track (told apart without colour), each
 * with its message on hover, focus and tap; the slider's description lists them for a screen reader.
 */
function RefusedTrack({
  id,
  name,
  min,
  max,
  ranges,
}: {
  id: string
  name: string
  min: number
  max: number
  ranges: RefusedRange[]
}) {
  const [shown, setShown] = useState<RefusedRange | null>(null)
  const percent = (value: number) => ((value - min) / (max - min)) * 100
  return (
    // Inset by half the thumb, so that a range's ends sit under the thumb at those values.
    <div className="relative mx-2 h-6" data-testid={`refused-track-${name}`}>
      <span id={id} className="sr-only">
        {ranges.map(rangeText).join('. ')}
      </span>
      {ranges.map((range) => (
        <button
          key={`${range.from}-${range.to}`}
          type="button"
          aria-label={`${name} ${rangeText(range)}`}
          data-testid="refused-range"
          style={{ left: `${percent(range.from)}%`, width: `${percent(range.to) - percent(range.from)}%` }}
          className={`absolute top-0 h-6 min-w-6 cursor-help ${FOCUS_RING}`}
          onPointerEnter={() => setShown(range)}
          onPointerLeave={() => setShown(null)}
          onFocus={() => setShown(range)}
          onBlur={() => setShown(null)}
          onClick={() => setShown(range)}
        >
          <span
            aria-hidden
            className="absolute inset-x-0 top-1 h-2 rounded-sm border border-red-800 bg-[repeating-linear-gradient(135deg,var(--color-red-800)_0_2px,transparent_2px_5px)]"
          />
        </button>
      ))}
      <p role="status" className="absolute left-0 right-0 top-full z-20">
        {shown && (
          <span
            data-testid="refused-range-message"
            className="block rounded-md bg-stone-900 px-2 py-1 text-xs text-white shadow"
          >
            {rangeText(shown)}
          </span>
        )}
      </p>
    </div>
  )
}

/** Announced at once when the value just picked is one the model refuses; the build still runs and decides. */
function RefusedNote({ testId, message }: { testId: string; message: string | null }) {
  return (
    <p role="status" data-testid={testId} className="text-xs font-medium text-red-800">
      {message && `Not possible with the other values as they are: ${message}`}
    </p>
  )
}

/** One labelled number input per element, each within the parameter's range. */
function VectorControl({
  parameter,
  value,
  error,
  onChange,
}: {
  parameter: Extract<Parameter, { type: 'vector' }>
  value: number[]
  error: string | null
  onChange: (value: number[]) => void
}) {
  const id = useId()
  const hint = parameter.caption || undefined
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1 text-sm font-medium text-stone-800">{parameter.name}</legend>
      <div className="flex gap-2">
        {value.map((element, index) => (
          <label key={index} className="flex flex-1 flex-col gap-1 text-xs text-stone-600">
            {`${parameter.name} ${index + 1}`}
            <NumberInput
              aria-describedby={describedByIds(id, hint, error)}
              aria-invalid={error ? true : undefined}
              range={parameter}
              value={element}
              onChange={(changed) => onChange(value.map((old, oldIndex) => (oldIndex === index ? changed : old)))}
            />
          </label>
        ))}
      </div>
      <FieldNotes id={id} hint={hint} error={error} />
    </fieldset>
  )
}

type NumberInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> & {
  range: Range
  value: number
  onChange: (value: number) => void
}

/** A number field that lets a half-typed number ("", "-") stand until it is one. */
function NumberInput({ range, value, onChange, ...control }: NumberInputProps) {
  const [text, setText] = useState(String(value))
  useEffect(() => {
    setText((current) => (Number(current) === value && current.trim() !== '' ? current : String(value)))
  }, [value])
  return (
    <Input
      {...control}
      type="number"
      inputMode="decimal"
      min={range.min ?? undefined}
      max={range.max ?? undefined}
      step={range.step ?? 'any'}
      value={text}
      onChange={(event) => {
        setText(event.target.value)
        if (event.target.value.trim() !== '' && Number.isFinite(event.target.valueAsNumber))
          onChange(event.target.valueAsNumber)
      }}
      className="tabular-nums"
    />
  )
}

function FileControl({
  label,
  hint,
  value,
  error,
  onChange,
  onUpload,
}: {
  label: string
  hint?: string
  value: string
  error: string | null
  onChange: (value: string) => void
  onUpload: (file: File) => Promise<string>
}) {
  const [uploadError, setUploadError] = useState<string | null>(null)
  const [isUploading, setIsUploading] = useState(false)
  const [fileName, setFileName] = useState<string | null>(null)
  const status = isUploading
    ? 'Uploading...'
    : value
      ? `Using ${fileName ?? 'the uploaded file'}`
      : 'No file chosen: the model uses its own default.'
  return (
    <Field
      label={label}
      hint={
        <>
          {hint && <span className="block">{hint}</span>}
          <span className="block">{status}</span>
        </>
      }
      error={uploadError ?? error}
    >
      {(control) => (
        <div className="flex items-center gap-2">
          <Input
            {...control}
            type="file"
            disabled={isUploading}
            onChange={async (event) => {
              const file = event.target.files?.[0]
              if (!file) return
              setIsUploading(true)
              setUploadError(null)
              try {
                onChange(await onUpload(file))
                setFileName(file.name)
              } catch (uploadFailure) {
                setUploadError(uploadFailure instanceof Error ? uploadFailure.message : String(uploadFailure))
              } finally {
                setIsUploading(false)
              }
            }}
          />
          {value && (
            <button
              type="button"
              className={`text-sm text-stone-700 underline ${FOCUS_RING}`}
              onClick={() => onChange('')}
            >
              Remove
            </button>
          )}
        </div>
      )}
    </Field>
  )
}
