'use client'

import { useState } from 'react'
import { ApplicationDetails } from '@/components/studio/application-details'
import { RegisterApplicationForm } from '@/components/studio/register-application-form'
import { FOCUS_RING } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { ErrorMessage } from '@/components/ui/error-message'
import { Spinner } from '@/components/ui/spinner'
import { useApiQuery } from '@/components/use-api-query'

export function ApplicationsPanel({ configuratorId }: { configuratorId: string }) {
  const applications = useApiQuery('listApplications', { params: { configuratorId } })
  const [selectedId, setSelectedId] = useState<string | null>(null)

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <div className="flex flex-col gap-6">
        <Card aria-labelledby="applications-heading">
          <h2 id="applications-heading" className="mb-3 text-base font-semibold">
            Applications
          </h2>
          <ErrorMessage error={applications.error} />
          {applications.isPending && <Spinner label="Loading applications" />}
          {applications.data?.length === 0 && (
            <p className="text-sm text-stone-600">
              No shop uses this configurator yet. Register one below to get its keys and embed code.
            </p>
          )}
          <ul className="flex flex-col gap-1">
            {applications.data?.map((application) => (
              <li key={application.UUID}>
                <button
                  type="button"
                  aria-current={application.UUID === selectedId ? 'true' : undefined}
                  onClick={() => setSelectedId(application.UUID)}
                  className={`flex w-full flex-col rounded-md px-3 py-2 text-left ${FOCUS_RING} ${
                    application.UUID === selectedId ? 'bg-stone-900 text-white' : 'hover:bg-stone-100'
                  }`}
                >
                  <span className="text-sm font-medium">{application.name}</span>
                  <span className={`text-xs ${application.UUID === selectedId ? 'text-stone-200' : 'text-stone-600'}`}>
                    {application.domain}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </Card>
        <Card aria-labelledby="register-heading">
          <h2 id="register-heading" className="mb-3 text-base font-semibold">
            Register an application
          </h2>
          <RegisterApplicationForm configuratorId={configuratorId} onRegistered={setSelectedId} />
        </Card>
      </div>
      <Card>
        {selectedId ? (
          <ApplicationDetails
            key={selectedId}
            configuratorId={configuratorId}
            applicationId={selectedId}
            onDeleted={() => setSelectedId(null)}
          />
        ) : (
          <p className="py-10 text-center text-sm text-stone-600">
            Choose an application to see its keys and embed code.
          </p>
        )}
      </Card>
    </div>
  )
}
