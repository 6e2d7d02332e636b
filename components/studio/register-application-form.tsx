'use client'

import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { ErrorMessage } from '@/components/ui/error-message'
import { Field, Input } from '@/components/ui/field'
import { fieldErrors } from '@/lib/client/field-errors'
import { callApiJson, operationKey, type OperationBody } from '@/lib/endpoints/client'
import { formText } from '@/lib/client/form-text'

export function RegisterApplicationForm({
  configuratorId,
  onRegistered,
}: {
  configuratorId: string
  onRegistered: (applicationId: string) => void
}) {
  const queryClient = useQueryClient()
  const register = useMutation({
    mutationFn: (input: OperationBody<'registerApplication'>) =>
      callApiJson('registerApplication', { params: { configuratorId }, json: input }),
    onSuccess: async ({ UUID }) => {
      await queryClient.invalidateQueries({
        queryKey: operationKey('listApplications', { params: { configuratorId } }),
      })
      onRegistered(UUID)
    },
  })
  const errors = fieldErrors(register.error)

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const formElement = event.currentTarget
    const form = new FormData(formElement)
    register.mutate(
      {
        name: formText(form, 'name'),
        domain: formText(form, 'domain'),
        licenseUUID: formText(form, 'licenseUUID'),
        secureInit: form.has('secureInit'),
        secureModel: form.has('secureModel'),
      },
      { onSuccess: () => formElement.reset() },
    )
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <Field label="Name" error={errors.name}>
        {(control) => <Input {...control} name="name" required maxLength={200} placeholder="Web shop" />}
      </Field>
      <Field
        label="Domain"
        hint="The host of the pages that embed it: shop.example.com allows that host on any port, shop.example.com:8443 only that port"
        error={errors.domain}
      >
        {(control) => <Input {...control} name="domain" required placeholder="shop.example.com" />}
      </Field>
      <Field label="License" hint="Optional: your reference for this shop's license" error={errors.licenseUUID}>
        {(control) => <Input {...control} name="licenseUUID" maxLength={200} />}
      </Field>
      <Checkbox
        name="secureInit"
        label="Secure start"
        hint="Sessions can only be opened by the shop's back end (server token)"
      />
      <Checkbox
        name="secureModel"
        label="Secure model"
        hint="Only the shop's back end can download the finalized model"
      />
      {Object.keys(errors).length === 0 && <ErrorMessage error={register.error} />}
      <Button type="submit" disabled={register.isPending}>
        {register.isPending ? 'Registering…' : 'Register application'}
      </Button>
    </form>
  )
}
