import { describe, expect, it } from 'vitest'
import { rawPathProblem } from '@/lib/api/raw-path'

describe('rawPathProblem', () => {
  it.each([
    ['/api/configurators/x/files/configurator/../main.scad', /dot segments/],
    ['/api/configurators/x/files/configurator/%2e%2e/main.scad', /dot segments/],
    ['/api/configurators/x/files/configurator/%2E./main.scad', /dot segments/],
    ['/api/configurators/x/files/configurator/./main.scad', /dot segments/],
    ['/api/configurators/x/files/configurator\\main.scad', /backslashes/],
    ['/api/configurators/x/files/configurator%5cmain.scad', /backslashes/],
    ['/api/configurators/x/files/configurator//main.scad', /empty path segments/],
  ])('refuses %s', (url, problem) => {
    expect(rawPathProblem(url)).toMatch(problem)
  })

  it.each(['/api/configurators', '/api/configurators/x/files/configurator/v1.2/main.scad', '/api/x?path=../y', '/api/configurators/'])(
    'accepts %s',
    (url) => {
      expect(rawPathProblem(url)).toBeNull()
    },
  )
})
