'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent, type ReactNode } from 'react'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { ErrorMessage } from '@/components/ui/error-message'
import { Field, Input, Select, TextArea } from '@/components/ui/field'
import { Spinner } from '@/components/ui/spinner'
import { useApiQuery } from '@/components/use-api-query'
import { cadSystem } from '@/lib/cad/engines'
import type { Capabilities } from '@/lib/capabilities/schemas'
import type { ConfiguratorDto } from '@/lib/configurators/schemas'
import { fieldErrors } from '@/lib/client/field-errors'
import { parseJsonObject } from '@/components/studio/parse-json-object'
import { SlicerProfilePicker } from '@/components/studio/slicer-profile-picker'
import { type SlicerProfile, ZSlicerProfile } from '@/lib/manufacturing/schemas'
import { callApiJson, operationKey } from '@/lib/endpoints/client'

export function ConfiguratorSettings({ configuratorId }: { configuratorId: string }) {
  const configurator = useApiQuery('getConfigurator', { params: { configuratorId } })
  const capabilities = useApiQuery('getCapabilities', {}, { staleTime: Infinity })
  const error = configurator.error ?? capabilities.error
  if (error) return <ErrorMessage error={error} />
  if (!configurator.data || !capabilities.data) return <Spinner label="Loading settings" />
  return <SettingsForm configurator={configurator.data} capabilities={capabilities.data} />
}

type Engine = Pick<Capabilities['cad'][number], 'type' | 'versions'>

/** The server's options, plus the configurator's current value should the server no longer list it. */
function withCurrent(engines: Engine[], type: string, version: string): Engine[] {
  const known = engines.find((engine) => engine.type === type)
  if (!known) return [...engines, { type, versions: [version] }]
  return known.versions.includes(version)
    ? engines
    : engines.map((engine) => (engine === known ? { type, versions: [...engine.versions, version] } : engine))
}

function versionsOf(engines: Engine[], type: string): string[] {
  return engines.find((engine) => engine.type === type)?.versions ?? []
}

interface EngineChoiceProps {
  typeLabel: string
  typeHint?: ReactNode
  versionLabel: string
  versionHint?: ReactNode
  engines: Engine[]
  type: string
  version: string
  typeError?: string
  versionError?: string
  /** A new type comes with its newest version. */
  onChange: (type: string, version: string) => void
}

function EngineChoice({
  typeLabel,
  typeHint,
  versionLabel,
  versionHint,
  engines,
  type,
  version,
  typeError,
  versionError,
  onChange,
}: EngineChoiceProps) {
  return (
    <>
      <Field label={typeLabel} hint={typeHint} error={typeError}>
        {(control) => (
          <Select
            {...control}
            value={type}
            onChange={(event) => onChange(event.target.value, versionsOf(engines, event.target.value).at(-1) ?? '')}
          >
            {engines.map((engine) => (
              <option key={engine.type}>{engine.type}</option>
            ))}
          </Select>
        )}
      </Field>
      <Field label={versionLabel} hint={versionHint} error={versionError}>
        {(control) => (
          <Select {...control} value={version} onChange={(event) => onChange(type, event.target.value)}>
            {versionsOf(engines, type).map((option) => (
              <option key={option}>{option}</option>
            ))}
          </Select>
        )}
      </Field>
    </>
  )
}

function objectOrEmpty(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

function SettingsForm({ configurator, capabilities }: { configurator: ConfiguratorDto; capabilities: Capabilities }) {
  const queryClient = useQueryClient()
  const { name, description, mainFile, cadType, cadVersion, rendererType, rendererVersion } = configurator
  const [fields, setFields] = useState({
    name,
    description,
    mainFile,
    cadType,
    cadVersion,
    rendererType,
    rendererVersion,
  })
  const [extraSettingsText, setExtraSettingsText] = useState(() => JSON.stringify(configurator.extraSettings, null, 2))
  const extraSettings = parseJsonObject(extraSettingsText)
  const system = cadSystem(fields.cadType)
  const cadEngines = withCurrent(capabilities.cad, configurator.cadType, configurator.cadVersion)
  const renderers = withCurrent(capabilities.renderers, configurator.rendererType, configurator.rendererVersion)

  const save = useMutation({
    // The choices are the server's own (and the current values), which it checks again: sent as chosen.
    mutationFn: (body: Record<string, unknown>) =>
      callApiJson('updateConfigurator', { params: { configuratorId: configurator.UUID }, json: body }),
    // The list shows names and settings too.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: operationKey('listConfigurators') }),
  })
  const serverErrors = fieldErrors(save.error)

  function change(patch: Partial<typeof fields>) {
    save.reset()
    setFields((current) => ({ ...current, ...patch }))
  }

  const manufacturing = objectOrEmpty(extraSettings.value?.manufacturing)
  const slicer = ZSlicerProfile.safeParse(manufacturing.slicer).data

  /** The picker's choice written into the extra settings' JSON, which stays the one thing saved. */
  function changeSlicer(next: SlicerProfile | undefined) {
    if (!extraSettings.value) return
    const { slicer: _previous, ...others } = manufacturing
    const nextManufacturing = next === undefined ? others : { ...others, slicer: next }
    const { manufacturing: _old, ...rest } = extraSettings.value
    save.reset()
    setExtraSettingsText(
      JSON.stringify(
        Object.keys(nextManufacturing).length > 0 ? { ...rest, manufacturing: nextManufacturing } : rest,
        null,
        2,
      ),
    )
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (extraSettings.value) save.mutate({ ...fields, extraSettings: extraSettings.value })
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-6">
      <Card className="grid gap-4 md:grid-cols-2">
        <h2 className="text-base font-semibold md:col-span-2">General</h2>
        <Field label="Name" error={serverErrors.name}>
          {(control) => (
            <Input
              {...control}
              value={fields.name}
              onChange={(event) => change({ name: event.target.value })}
              required
              maxLength={200}
            />
          )}
        </Field>
        <Field
          label="Main file"
          hint={`Path inside the configurator folder, e.g. ${system.mainFile}`}
          error={serverErrors.mainFile}
        >
          {(control) => (
            <Input
              {...control}
              value={fields.mainFile}
              onChange={(event) => change({ mainFile: event.target.value })}
              required
            />
          )}
        </Field>
        <div className="md:col-span-2">
          <Field label="Description" error={serverErrors.description}>
            {(control) => (
              <TextArea
                {...control}
                monospace={false}
                rows={3}
                maxLength={10_000}
                value={fields.description}
                onChange={(event) => change({ description: event.target.value })}
              />
            )}
          </Field>
        </div>
      </Card>

      <Card className="grid gap-4 md:grid-cols-2">
        <h2 className="text-base font-semibold md:col-span-2">Engine and renderer</h2>
        <EngineChoice
          typeLabel="CAD system"
          versionLabel="CAD version"
          versionHint="The newest is listed last"
          engines={cadEngines}
          type={fields.cadType}
          version={fields.cadVersion}
          typeError={serverErrors.cadType}
          versionError={serverErrors.cadVersion}
          onChange={(cadType, cadVersion) => change({ cadType, cadVersion })}
        />
        <EngineChoice
          typeLabel="Renderer"
          typeHint="webgl draws in the customer's browser; headless also renders images on the server"
          versionLabel="Renderer version"
          engines={renderers}
          type={fields.rendererType}
          version={fields.rendererVersion}
          typeError={serverErrors.rendererType}
          versionError={serverErrors.rendererVersion}
          onChange={(rendererType, rendererVersion) => change({ rendererType, rendererVersion })}
        />
      </Card>

      <Card>
        <SlicerProfilePicker
          slicer={slicer}
          onChange={changeSlicer}
          disabled={extraSettings.value === null}
          error={
            serverErrors.extraSettings?.startsWith('manufacturing.slicer') ? serverErrors.extraSettings : undefined
          }
        />
      </Card>

      <Card>
        <Field
          label="Extra settings (JSON)"
          hint={
            <>
              A JSON object. The server reads <code>quality.preview</code> and <code>quality.final</code> (variable
              overrides such as {JSON.stringify(system.qualityExample)}), <code>limits.buildSeconds</code>,{' '}
              <code>renderers</code> and <code>manufacturing</code>: each part&apos;s <code>label</code> and{' '}
              <code>material</code> ({'{"name": "PETG", "density": 1.27, "pricePerKg": 25}'}, or{' '}
              <code>pricePerCm3</code>) by part number in <code>parts</code>, <code>currency</code> (ISO 4217),{' '}
              <code>basePrice</code>, <code>pricePerHour</code> (of print time), <code>minimumWallMm</code> (0.8),{' '}
              <code>buildVolumeMm</code> (the slicer&apos;s printer&apos;s bed; set, it replaces the bed),{' '}
              <code>allowOversize</code> (false: a model that fits it in no orientation has no price and cannot be
              ordered) and <code>slicer</code>, the PrusaSlicer profile the quote slices with: presets of the
              server&apos;s bundles (
              {
                '{"vendor": "PrusaResearch", "printer": "Original Prusa MINI & MINI+", "print": "0.15mm QUALITY @MINI", "filament": "Prusament PETG @MINI"}'
              }
              ) or a config exported from PrusaSlicer ({'{"name": "Our MINI", "config": "…"}'}).
            </>
          }
          error={extraSettings.error ?? serverErrors.extraSettings}
        >
          {(control) => (
            <TextArea
              {...control}
              rows={10}
              spellCheck={false}
              value={extraSettingsText}
              onChange={(event) => {
                save.reset()
                setExtraSettingsText(event.target.value)
              }}
            />
          )}
        </Field>
      </Card>

      <div className="flex items-center gap-4">
        <Button type="submit" disabled={save.isPending || extraSettings.value === null}>
          {save.isPending ? 'Saving…' : 'Save settings'}
        </Button>
        <p role="status" className="text-sm text-green-800">
          {save.isSuccess ? 'Saved' : ''}
        </p>
      </div>
      {save.isError && Object.keys(serverErrors).length === 0 && <ErrorMessage error={save.error} />}
    </form>
  )
}
