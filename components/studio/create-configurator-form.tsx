'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useRouter } from 'next/navigation'
import { type FormEvent, useState } from 'react'
import { Button } from '@/components/ui/button'
import { ErrorMessage } from '@/components/ui/error-message'
import { Field, Input, Select } from '@/components/ui/field'
import { fieldErrors } from '@/lib/client/field-errors'
import { callApi, callApiJson, operationKey, type OperationBody } from '@/lib/endpoints/client'
import { CAD_TYPES, cadSystem, type CadType, DEFAULT_CAD_TYPE, isCadType } from '@/lib/cad/engines'
import { formText } from '@/lib/client/form-text'

export function CreateConfiguratorForm() {
  const router = useRouter()
  const queryClient = useQueryClient()
  const create = useMutation({
    // A new model starts with code that builds (its CAD system's starter files), opened in its editor.
    mutationFn: async (input: OperationBody<'createConfigurator'>) => {
      const { UUID } = await callApiJson('createConfigurator', { json: input })
      for (const { path, text } of cadSystem(input.cadType ?? DEFAULT_CAD_TYPE).starterFiles(input.mainFile))
        await callApi('uploadConfiguratorFile', { params: { configuratorId: UUID, path: path.split('/') }, body: text })
      return UUID
    },
    onSuccess: async (configuratorId) => {
      await queryClient.invalidateQueries({ queryKey: operationKey('listConfigurators') })
      router.push(`/studio/configurators/${configuratorId}/editor`)
    },
  })
  const errors = fieldErrors(create.error)
  const [cadType, setCadType] = useState<CadType>(DEFAULT_CAD_TYPE)
  // The main file follows the CAD system until the designer names one.
  const [mainFile, setMainFile] = useState<string | null>(null)

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    create.mutate({ name: formText(form, 'name'), mainFile: formText(form, 'mainFile'), cadType })
  }

  return (
    <form onSubmit={submit} className="grid items-start gap-4 sm:grid-cols-[2fr_1fr_1fr_auto]">
      <Field label="Name" error={errors.name}>
        {(control) => <Input {...control} name="name" required maxLength={200} placeholder="Lidded box" />}
      </Field>
      <Field label="CAD system" hint={`Models in ${cadSystem(cadType).language}`} error={errors.cadType}>
        {(control) => (
          <Select
            {...control}
            name="cadType"
            value={cadType}
            onChange={(event) => isCadType(event.target.value) && setCadType(event.target.value)}
          >
            {CAD_TYPES.map((type) => (
              <option key={type} value={type}>
                {cadSystem(type).name}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="Main file" hint="The model's entry point in the configurator folder" error={errors.mainFile}>
        {(control) => (
          <Input
            {...control}
            name="mainFile"
            required
            value={mainFile ?? cadSystem(cadType).mainFile}
            onChange={(event) => setMainFile(event.target.value)}
          />
        )}
      </Field>
      <Button type="submit" className="sm:mt-6" disabled={create.isPending}>
        {create.isPending ? 'Creating…' : 'Create configurator'}
      </Button>
      {Object.keys(errors).length === 0 && (
        <div className="sm:col-span-4">
          <ErrorMessage error={create.error} />
        </div>
      )}
    </form>
  )
}
