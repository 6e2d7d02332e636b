import { useQuery } from '@tanstack/react-query'
import type { z } from 'zod'
import type { ApplicationDto, ZApplicationSummary } from '@/lib/applications/schemas'
import type { Capabilities } from '@/lib/capabilities/schemas'
import type { ConfiguratorDto, ZConfiguratorFile } from '@/lib/configurators/schemas'
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
  return useQuery({ queryKey: studioKeys.configurators, queryFn: () => apiJson<ConfiguratorDto[]>('/configurators') })
}

export function useConfigurator(id: string) {
  return useQuery({ queryKey: studioKeys.configurator(id), queryFn: () => apiJson<ConfiguratorDto>(`/configurators/${id}`) })
}

export function useConfiguratorFiles(id: string | null) {
  return useQuery({
    queryKey: studioKeys.files(id ?? ''),
    queryFn: () => apiJson<ConfiguratorFile[]>(`/configurators/${id}/files`),
    enabled: id !== null,
  })
}

export function useApplications(configuratorId: string) {
  return useQuery({
    queryKey: studioKeys.applications(configuratorId),
    queryFn: () => apiJson<ApplicationSummary[]>(`/configurators/${configuratorId}/applications`),
  })
}

export function useApplication(id: string) {
  return useQuery({ queryKey: studioKeys.application(id), queryFn: () => apiJson<ApplicationDto>(`/applications/${id}`) })
}

export function useCapabilities() {
  return useQuery({ queryKey: studioKeys.capabilities, queryFn: () => apiJson<Capabilities>('/capabilities'), staleTime: Infinity })
}
