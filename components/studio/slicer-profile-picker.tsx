'use client'

import { keepPreviousData, useQueryClient } from '@tanstack/react-query'
import { useId, useState, type ChangeEvent } from 'react'
import { Field, FieldNotes, Input, Select } from '@/components/ui/field'
import { useApiQuery } from '@/components/use-api-query'
import { callApiJson, operationKey } from '@/lib/endpoints/client'
import type { SlicerProfile } from '@/lib/manufacturing/schemas'
import type { SlicerProfilesQuery } from '@/lib/capabilities/schemas'

type Presets = Extract<SlicerProfile, { vendor: string }>
type Mode = 'default' | 'presets' | 'upload'

const MAX_CONFIG_BYTES = 1024 * 1024

function modeOf(slicer: SlicerProfile | undefined): Mode {
  if (slicer === undefined) return 'default'
  return 'config' in slicer ? 'upload' : 'presets'
}

/** The options of a list, with the current value first should the server no longer offer it. */
function withCurrent(options: string[], current: string): string[] {
  return current === '' || options.includes(current) ? options : [current, ...options]
}

interface SlicerProfilePickerProps {
  /** The extra settings' `manufacturing.slicer`, undefined for the server's default. */
  slicer: SlicerProfile | undefined
  onChange: (slicer: SlicerProfile | undefined) => void
  /** While the extra settings' JSON does not parse, there is nothing to pick into. */
  disabled: boolean
  error?: string
}

/**
 * The PrusaSlicer profile of the configurator's quote: the server's default, presets of its vendor
 * bundles offered as PrusaSlicer's own lists would (a printer picked brings its suggested print
 * settings and filament), or an uploaded config. The choice goes into the extra settings' JSON.
 */
export function SlicerProfilePicker({ slicer, onChange, disabled, error }: SlicerProfilePickerProps) {
  const queryClient = useQueryClient()
  const [choosing, setChoosing] = useState(false)
  const [uploadError, setUploadError] = useState<string | null>(null)
  // Chosen before a file is: the upload field shows, the profile stays as it was until one is read.
  const [awaitingFile, setAwaitingFile] = useState(false)
  const uploadId = useId()
  const mode = awaitingFile ? 'upload' : modeOf(slicer)
  const presets = slicer && !('config' in slicer) ? slicer : null
  const listing = useApiQuery(
    'listSlicerProfiles',
    { query: presets ? { vendor: presets.vendor, printer: presets.printer, print: presets.print } : {} },
    { placeholderData: keepPreviousData, staleTime: Infinity },
  )
  const profiles = listing.data

  function list(query: SlicerProfilesQuery) {
    return queryClient.fetchQuery({
      queryKey: operationKey('listSlicerProfiles', { query }),
      queryFn: () => callApiJson('listSlicerProfiles', { query }),
      staleTime: Infinity,
    })
  }

  /** Picks in order: a vendor's first printer, a printer's suggested print settings, then a filament that suits (the current one if it does). */
  async function choose(choice: Partial<Presets> & { vendor: string }) {
    setChoosing(true)
    try {
      const printer = choice.printer ?? (await list({ vendor: choice.vendor })).printers[0]?.name
      if (printer === undefined) return
      const print =
        choice.print ?? (await list({ vendor: choice.vendor, printer })).suggested.print ?? presets?.print ?? ''
      const { filaments, suggested } = await list({ vendor: choice.vendor, printer, print })
      const current = choice.filament ?? presets?.filament ?? ''
      onChange({
        vendor: choice.vendor,
        printer,
        print,
        filament: filaments.includes(current) ? current : (suggested.filament ?? current),
      })
    } finally {
      setChoosing(false)
    }
  }

  function chooseMode(next: Mode) {
    setUploadError(null)
    setAwaitingFile(next === 'upload')
    if (next === 'default') onChange(undefined)
    else if (next === 'presets' && profiles) onChange(profiles.default)
  }

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (!file) return
    if (file.size > MAX_CONFIG_BYTES) {
      setUploadError(`${file.name} is larger than 1 MB: a PrusaSlicer config is a few dozen KB`)
      return
    }
    setUploadError(null)
    setAwaitingFile(false)
    onChange({ name: file.name.replace(/\.ini$/i, ''), config: await file.text() })
  }

  const busy = disabled || choosing || !profiles
  return (
    <div className="grid gap-4 md:grid-cols-2" aria-busy={choosing || listing.isFetching}>
      <div className="md:col-span-2">
        <h2 className="text-base font-semibold">Print quote</h2>
        <p className="text-sm text-stone-600">
          PrusaSlicer slices each configured model with this profile for its print time, filament and price. Its
          printer&apos;s bed is the build volume the model must fit.
          {profiles && !profiles.installed && ' This server has no PrusaSlicer: models are not sliced.'}
        </p>
      </div>
      <Field label="Profile" error={error}>
        {(control) => (
          <Select
            {...control}
            value={mode}
            disabled={busy}
            onChange={(event) => chooseMode(event.target.value as Mode)}
          >
            <option value="default">
              Server default
              {profiles && ` (${profiles.default.printer}, ${profiles.default.print}, ${profiles.default.filament})`}
            </option>
            <option value="presets" disabled={profiles?.vendors.length === 0}>
              Presets of a PrusaSlicer vendor
            </option>
            <option value="upload">An uploaded PrusaSlicer config (.ini)</option>
          </Select>
        )}
      </Field>
      {mode === 'upload' && (
        <div className="flex flex-col gap-1">
          <label htmlFor={uploadId} className="text-sm font-medium text-stone-800">
            Config file
          </label>
          <Input id={uploadId} type="file" accept=".ini,text/plain" disabled={disabled} onChange={upload} />
          <FieldNotes
            id={uploadId}
            hint={`${slicer && 'config' in slicer ? `Now: ${slicer.name}. ` : ''}Export it from PrusaSlicer with File > Export > Export Config.`}
            error={uploadError}
          />
        </div>
      )}
      {mode === 'presets' && presets && profiles && (
        <>
          <Field label="Vendor">
            {(control) => (
              <Select
                {...control}
                value={presets.vendor}
                disabled={busy}
                onChange={(event) => void choose({ vendor: event.target.value })}
              >
                {withCurrent(
                  profiles.vendors.map(({ id }) => id),
                  presets.vendor,
                ).map((id) => (
                  <option key={id} value={id}>
                    {profiles.vendors.find((vendor) => vendor.id === id)?.name ?? id}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Printer" hint="Its bed and highest print, the build volume">
            {(control) => (
              <Select
                {...control}
                value={presets.printer}
                disabled={busy}
                onChange={(event) => void choose({ vendor: presets.vendor, printer: event.target.value })}
              >
                {withCurrent(
                  profiles.printers.map(({ name }) => name),
                  presets.printer,
                ).map((name) => {
                  const printer = profiles.printers.find((printer) => printer.name === name)
                  return (
                    <option key={name} value={name}>
                      {printer
                        ? `${name} (${printer.buildVolumeMm.join(' × ')} mm${printer.extruders > 1 ? `, ${printer.extruders} extruders` : ''})`
                        : name}
                    </option>
                  )
                })}
              </Select>
            )}
          </Field>
          <Field label="Print settings">
            {(control) => (
              <Select
                {...control}
                value={presets.print}
                disabled={busy}
                onChange={(event) =>
                  void choose({ vendor: presets.vendor, printer: presets.printer, print: event.target.value })
                }
              >
                {withCurrent(profiles.prints, presets.print).map((name) => (
                  <option key={name}>{name}</option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Filament">
            {(control) => (
              <Select
                {...control}
                value={presets.filament}
                disabled={busy}
                onChange={(event) => onChange({ ...presets, filament: event.target.value })}
              >
                {withCurrent(profiles.filaments, presets.filament).map((name) => (
                  <option key={name}>{name}</option>
                ))}
              </Select>
            )}
          </Field>
        </>
      )}
    </div>
  )
}
