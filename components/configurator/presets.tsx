'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { Values } from '@/components/configurator/share-values'
import { Button } from '@/components/ui/button'
import { ErrorMessage } from '@/components/ui/error-message'
import { Field, Input, Select } from '@/components/ui/field'
import { useApiQuery } from '@/components/use-api-query'
import type { ApiCredentials } from '@/lib/client/api-client'
import { callApiJson, operationKey, type OperationResult } from '@/lib/endpoints/client'
import type { ParameterSet } from '@/lib/sessions/schemas'

interface PresetsProps {
  configuratorId: string
  sessionId: string
  credentials: ApiCredentials | undefined
  parameters: ParameterSet
  /** What the controls show now: what a saved preset holds. */
  values: Values
  onApply: (values: Values) => void
  /** The designer's studio: the current values may be saved as a preset. */
  canSave: boolean
}

/**
 * The model's presets (OpenSCAD's parameter sets): choosing one sets every parameter, those it
 * does not name back to their defaults, as OpenSCAD does.
 */
/** A preset applied as OpenSCAD does: parameters it does not name go back to their defaults. */
export function presetValues(parameters: ParameterSet, preset: OperationResult<'listPresets'>[number]): Values {
  return Object.fromEntries(
    Object.entries(parameters).map(([key, parameter]) => [key, preset.values[key] ?? parameter.default]),
  )
}

export function Presets({
  configuratorId,
  sessionId,
  credentials,
  parameters,
  values,
  onApply,
  canSave,
}: PresetsProps) {
  const queryClient = useQueryClient()
  const presets = useApiQuery('listPresets', { params: { sessionId }, credentials })
  const [name, setName] = useState('')
  const save = useMutation({
    mutationFn: () =>
      callApiJson('savePreset', {
        params: { configuratorId, name: name.trim() },
        json: Object.fromEntries(
          Object.entries(values)
            .filter(([key]) => parameters[key]?.type !== 'file')
            .map(([key, value]) => [key, { value }]),
        ),
      }),
    onSuccess: () => setName(''),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: operationKey('listPresets', { params: { sessionId } }) }),
  })
  const list = presets.data ?? []
  if (list.length === 0 && !canSave) return null

  // The preset whose values the controls hold now: shown as the list's choice until a value changes.
  const active = list.find((preset) =>
    Object.entries(presetValues(parameters, preset)).every(
      ([key, value]) => JSON.stringify(values[key]) === JSON.stringify(value),
    ),
  )

  function apply(presetName: string) {
    const preset = list.find((candidate) => candidate.name === presetName)
    if (preset) onApply(presetValues(parameters, preset))
  }

  return (
    <div className="flex flex-col gap-3">
      {list.length > 0 && (
        <Field label="Preset">
          {(control) => (
            <Select {...control} value={active?.name ?? ''} onChange={(event) => apply(event.target.value)}>
              <option value="" disabled>
                Choose a preset…
              </option>
              {list.map((preset) => (
                <option key={preset.name}>{preset.name}</option>
              ))}
            </Select>
          )}
        </Field>
      )}
      {canSave && (
        <form
          className="flex items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault()
            save.mutate()
          }}
        >
          <div className="flex-1">
            <Field label="Save these values as preset" hint="Kept in the model's preset file, beside its main file.">
              {(control) => (
                <Input
                  {...control}
                  value={name}
                  maxLength={200}
                  onChange={(event) => setName(event.target.value)}
                  placeholder="e.g. Large"
                />
              )}
            </Field>
          </div>
          <Button type="submit" variant="secondary" disabled={name.trim() === '' || save.isPending}>
            Save preset
          </Button>
        </form>
      )}
      {save.isSuccess && (
        <p role="status" className="text-sm text-stone-700">
          Saved preset {save.data.name}.
        </p>
      )}
      <ErrorMessage error={presets.error ?? save.error} />
    </div>
  )
}
