import { describe, expect, it } from 'vitest'
import { ApiError } from '@/lib/client/api-client'
import { fieldErrors } from '@/lib/client/field-errors'

describe('fieldErrors', () => {
  it("groups a 422's fields by their top-level key, with the path inside that key", () => {
    const error = new ApiError(422, 'unprocessable_entity', 'name: Too small; ...', [
      { path: ['name'], message: 'Too small' },
      { path: ['extraSettings', 'quality', 'preview'], message: 'bad' },
      { path: ['extraSettings', 'limits'], message: 'worse' },
      { path: ['size', 'value', 1], message: 'must be a number' },
    ])
    expect(fieldErrors(error)).toEqual({
      name: 'Too small',
      extraSettings: 'quality.preview: bad; limits: worse',
      size: 'value.1: must be a number',
    })
  })

  it('ignores anything but a 422, and the message text', () => {
    expect(fieldErrors(new ApiError(404, 'not_found', 'name: gone'))).toEqual({})
    expect(fieldErrors(new ApiError(422, 'unprocessable_entity', 'name: no fields'))).toEqual({})
    expect(fieldErrors(new Error('name: x'))).toEqual({})
  })
})
