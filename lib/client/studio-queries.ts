import { useQuery } from '@tanstack/react-query'
import type { z } from 'zod'
import type { ZApplication, ZApplicationSummary } from '@/lib/applications/schemas'
import type { ZCapabilities } from '@/lib/capabilities/schemas'
import type { ZConfigurator, ZConfiguratorFile } from '@/lib/configurators/schemas'
import { apiJson } from '@/lib/client/api-client'

export type ApplicationSummary = z.infer<typeof ZApplicationSummary>
export type ConfiguratorFile = z.infer<typeof ZConfiguratorFile>

/** Query keys: invalidating a prefix refreshes everything below it. */
export const studioKeys = {
  configurators: ['configurators'] as const,
  configurator: (id: string) => ['configurators', id] as const,
  files: (id: string) => ['configurators', id, 'files'] as const,
  applications: (id: string) => ['configurators', id, 'applications'] as const,
  application: (id: string) => ['applications', id] as const,
  capabilities: ['capabilities'] as const,
}

export function useConfigurators() {
  return useQuery({ queryKey: studioKeys.configurators, queryFn: () => apiJson<z.ZodArray<typeof ZConfigurator>>('/configurators') })
}

export function useConfigurator(id: string) {
  return useQuery({ queryKey: studioKeys.configurator(id), queryFn: () => apiJson<typeof ZConfigurator>(`/configurators/${id}`) })
}

export function useConfiguratorFiles(id: string | null) {
  return useQuery({
    queryKey: studioKeys.files(id ?? ''),
    queryFn: () => apiJson<z.ZodArray<typeof ZConfiguratorFile>>(`/configurators/${id}/files`),
    enabled: id !== null,
  })
}

export function useApplications(configuratorId: string) {
  return useQuery({
    queryKey: studioKeys.applications(configuratorId),
    queryFn: () => apiJson<z.ZodArray<typeof ZApplicationSummary>>(`/configurators/${configuratorId}/applications`),
  })
}

export function useApplication(id: string) {
  return useQuery({ queryKey: studioKeys.application(id), queryFn: () => apiJson<typeof ZApplication>(`/applications/${id}`) })
}

export function useCapabilities() {
  return useQuery({ queryKey: studioKeys.capabilities, queryFn: () => apiJson<typeof ZCapabilities>('/capabilities'), staleTime: Infinity })
}
