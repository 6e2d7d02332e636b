import { describe, expect, it } from 'vitest'
import { ApiError } from '@/lib/client/api-client'
import { fieldErrors } from '@/lib/client/field-errors'

describe('fieldErrors', () => {
  it('groups the parts of a 422 message by their top-level field', () => {
    const error = new ApiError(422, 'unprocessable_entity', 'name: Too small; extraSettings.quality.preview: bad; extraSettings.limits: worse')
    expect(fieldErrors(error)).toEqual({ name: 'name: Too small', extraSettings: 'extraSettings.quality.preview: bad; extraSettings.limits: worse' })
  })

  it('ignores anything but a 422', () => {
    expect(fieldErrors(new ApiError(404, 'not_found', 'name: gone'))).toEqual({})
    expect(fieldErrors(new Error('name: x'))).toEqual({})
  })
})
