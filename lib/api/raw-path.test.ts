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
    ['/api/configsessions/%FF', /malformed percent-encoding/],
    ['/api/configsessions/%C0%AE%C0%AE/x', /malformed percent-encoding/],
    ['/api/configsessions/%ED%A0%80', /malformed percent-encoding/],
    ['/api/configsessions/%', /malformed percent-encoding/],
    ['/api/configsessions/%4', /malformed percent-encoding/],
    ['/embed/%FF', /malformed percent-encoding/],
    ['/studio/%C0%AE?x=1', /malformed percent-encoding/],
    ['/%E0%80%AF', /malformed percent-encoding/],
  ])('refuses %s', (url, problem) => {
    expect(rawPathProblem(url)).toMatch(problem)
  })

  it.each([
    '/api/configurators',
    '/api/configurators/x/files/configurator/v1.2/main.scad',
    '/api/x?path=../y',
    '/api/configurators/',
    '/embed/%C3%BC',
    '/studio//x',
    '/a/../b',
    '/api/x?name=%FF',
  ])('accepts %s', (url) => {
    expect(rawPathProblem(url)).toBeNull()
  })
})
