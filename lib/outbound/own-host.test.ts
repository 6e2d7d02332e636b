import os from 'node:os'
import { describe, expect, it, vi } from 'vitest'
import { externalUrlProblem, isOwnAddress, ownHostNames } from '@/lib/outbound/own-host'

// lib/env reads the environment once, when first imported.
vi.hoisted(() => {
  process.env.RENDER_BASE_URL = 'https://render-base.example.net:8443/app'
})

const OWN = ['shop.example.com:3000', 'paraform-web-1', 'https://render.example.net/base']
const problem = (host: string) => externalUrlProblem(`http://${host}/api/configsessions/x/renderers/y/image?key=k`, OWN)

describe('externalUrlProblem', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1 is not a public address'],
    ['127.1', '127.0.0.1 is not a public address'],
    ['2130706433', '127.0.0.1 is not a public address'],
    ['0x7f.0.0.1', '127.0.0.1 is not a public address'],
    ['0x7f000001', '127.0.0.1 is not a public address'],
    ['0177.0.0.1', '127.0.0.1 is not a public address'],
    ['127.0.0.1.', '127.0.0.1 is not a public address'],
    ['%31%32%37.0.0.1', '127.0.0.1 is not a public address'],
    ['127.0.0.1:3000', '127.0.0.1 is not a public address'],
    ['0.0.0.0', '0.0.0.0 is not a public address'],
    ['0', '0.0.0.0 is not a public address'],
    ['[::1]', '[::1] is not a public address'],
    ['[0:0:0:0:0:0:0:1]', '[::1] is not a public address'],
    ['[::]', '[::] is not a public address'],
    ['[::ffff:127.0.0.1]', '[::ffff:7f00:1] is not a public address'],
    ['[::ffff:10.0.0.1]', '[::ffff:a00:1] is not a public address'],
    ['10.0.0.1', '10.0.0.1 is not a public address'],
    ['169.254.169.254', '169.254.169.254 is not a public address'],
    ['[fd00::2]', '[fd00::2] is not a public address'],
    ['localhost', 'localhost is this server'],
    ['LOCALHOST:8080', 'localhost is this server'],
    ['localhost.', 'localhost. is this server'],
    ['foo.localhost', 'foo.localhost is this server'],
    ['ｌｏｃａｌｈｏｓｔ', 'localhost is this server'],
    ['shop.example.com', 'shop.example.com is this server'],
    ['Shop.Example.COM.:443', 'shop.example.com. is this server'],
    ['paraform-web-1', 'paraform-web-1 is this server'],
    ['render.example.net:1', 'render.example.net is this server'],
  ])('refuses %s', (host, message) => {
    expect(problem(host)).toBe(message)
  })

  it.each([
    'example.com',
    'images.example.com',
    'shop.example.com.evil.test',
    'localhost.evil.test',
    '93.184.215.14',
    '[2606:2800:21f:cb07:6820:80da:af6b:8b2c]',
  ])('lets %s pass (public, not this server)', (host) => {
    expect(problem(host)).toBeNull()
  })

  it("refuses every address of this machine's interfaces, public ones too", () => {
    const addresses = Object.values(os.networkInterfaces()).flatMap((entries) => entries ?? [])
    expect(addresses.length).toBeGreaterThan(0)
    for (const { address, family } of addresses) {
      const bare = address.split('%')[0]!
      expect(isOwnAddress(bare), bare).toBe(true)
      expect(externalUrlProblem(`https://${family === 'IPv6' ? `[${bare}]` : bare}/t.png`, [])).not.toBeNull()
    }
    expect(isOwnAddress('93.184.215.14')).toBe(false)
  })

  it("takes the request's Host, the machine's name and RENDER_BASE_URL's host as this server's names", () => {
    const names = ownHostNames('Configurator.Example.org:8443')
    expect(externalUrlProblem('https://configurator.example.org/x.png', names)).toBe(
      'configurator.example.org is this server',
    )
    expect(externalUrlProblem(`http://${os.hostname()}:1234/x.png`, names)).not.toBeNull()
    expect(externalUrlProblem('http://render-base.example.net/x.png', names)).toBe(
      'render-base.example.net is this server',
    )
    expect(externalUrlProblem('http://render-base.example.net/x.png', [])).toBeNull()
  })
})
