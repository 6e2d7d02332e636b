/* Paraform embed, protocol version 1 (docs/embed.md). Include it from the Paraform server:
 *   <script src="https://paraform.example.com/embed.js"></script>
 *   const c = await Paraform.mount(element, { key: 'APPLICATION_KEY' })
 * mount rejects when the configurator has not answered within `timeout` ms (default 15000): the
 * embed talks only to pages of the application's domain.
 *   c.on('change', (event) => ...); await c.set({ width: 80 }); const snapshot = await c.snapshot()
 * No build step, no dependencies. */
;(function () {
  'use strict'
  var PROTOCOL = 'paraform'
  var VERSION = 1
  var script = document.currentScript
  var defaultOrigin = script && script.src ? new URL(script.src).origin : location.origin

  function badOption(message) {
    return Promise.reject(Object.assign(new Error('Paraform.mount: ' + message), { code: 'bad_option' }))
  }

  /** What the embed shows, for its page in the frame's fragment (the query holds the values). */
  function layoutOf(options) {
    var layout = new URLSearchParams()
    var flags = ['controls', 'price', 'presets', 'ar']
    for (var i = 0; i < flags.length; i++) {
      var value = options[flags[i]]
      if (value === undefined) continue
      if (typeof value !== 'boolean')
        return { error: flags[i] + ' must be true or false, not ' + JSON.stringify(value) }
      layout.set(flags[i], String(value))
    }
    if (options.shareUrl !== undefined) {
      var url
      try {
        url = new URL(options.shareUrl)
      } catch {
        url = null
      }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
        return { error: 'shareUrl must be an http(s) URL, not ' + JSON.stringify(options.shareUrl) }
      layout.set('shareUrl', url.toString())
    }
    return { fragment: layout.toString() }
  }

  function mount(element, options) {
    if (!element || !options || !options.key)
      return Promise.reject(new Error('Paraform.mount(element, {key}) needs an element and an application key'))
    var layout = layoutOf(options)
    if (layout.error) return badOption(layout.error)
    var origin = new URL(options.origin || defaultOrigin).origin
    var frame = document.createElement('iframe')
    var query = options.values ? '?' + new URLSearchParams(options.values).toString() : ''
    frame.src =
      origin + '/embed/' + encodeURIComponent(options.key) + query + (layout.fragment ? '#' + layout.fragment : '')
    frame.title = options.title || 'Product configurator'
    frame.style.cssText = 'width:100%;border:0;height:' + (options.height || '640px')
    frame.allow = 'fullscreen'
    var listeners = {}
    var pending = {}
    var counter = 0
    var readyResolve
    var readyReject
    var ready = new Promise(function (resolve, reject) {
      readyResolve = resolve
      readyReject = reject
    })
    var timeout = options.timeout || 15000
    var waiting = setTimeout(function () {
      readyReject(
        Object.assign(
          new Error(
            'Paraform.mount: the configurator did not answer this page (' +
              location.origin +
              ') within ' +
              timeout / 1000 +
              " s. It talks only to pages of its application's domain: check that the domain matches " +
              location.origin +
              ' (a domain without a port allows every port of its host, one with a port only that port)',
          ),
          { code: 'no_answer' },
        ),
      )
    }, timeout)

    function emit(type, message) {
      ;(listeners[type] || []).slice().forEach(function (listener) {
        listener(message)
      })
    }
    function settle(requestId, error, value) {
      var request = pending[requestId]
      if (!request) return
      delete pending[requestId]
      if (error) request.reject(Object.assign(new Error(error.message), { code: error.code }))
      else request.resolve(value)
    }
    function receive(event) {
      var message = event.data
      if (event.source !== frame.contentWindow || event.origin !== origin) return
      if (!message || message.protocol !== PROTOCOL || message.version !== VERSION) return
      if (message.type === 'ready') {
        clearTimeout(waiting)
        readyResolve(controller)
      }
      if (message.type === 'change')
        message.requestIds.forEach(function (id) {
          settle(id, null, message)
        })
      if (message.type === 'snapshot') settle(message.requestId, null, message.snapshot)
      if (message.type === 'ar') settle(message.requestId, null, message.opened)
      if (message.type === 'error' && message.requestId) settle(message.requestId, message)
      // Refused before it was ready (a shareUrl off the application's domain): mount fails with it.
      if (message.type === 'error' && !message.requestId) {
        clearTimeout(waiting)
        readyReject(Object.assign(new Error(message.message), { code: message.code }))
      }
      emit(message.type, message)
    }
    function request(type, fields) {
      return ready.then(function () {
        return new Promise(function (resolve, reject) {
          var requestId = 'r' + ++counter
          pending[requestId] = { resolve: resolve, reject: reject }
          var message = { protocol: PROTOCOL, version: VERSION, type: type, requestId: requestId }
          for (var name in fields) message[name] = fields[name]
          frame.contentWindow.postMessage(message, origin)
        })
      })
    }
    var controller = {
      frame: frame,
      /** Listens to 'ready', 'change', 'refusedValues', 'error' or 'snapshot'; answers a function that stops listening. */
      on: function (type, listener) {
        ;(listeners[type] = listeners[type] || []).push(listener)
        return function () {
          listeners[type] = listeners[type].filter(function (other) {
            return other !== listener
          })
        }
      },
      /** Sets parameter values; resolves with the change once they are built. */
      set: function (values) {
        return request('set', { values: values })
      },
      /** Applies one of the model's presets by name; resolves with the change once built. */
      applyPreset: function (name) {
        return request('applyPreset', { name: name })
      },
      /** Opens "View in your space" as its button would (for a viewer-only embed, from the shop's own button); resolves with what opened: 'quickLook', 'sceneViewer' or 'qrCode'. */
      openAr: function () {
        return request('openAr', {})
      },
      /** Freezes the configuration for an order; resolves with the snapshot. */
      snapshot: function () {
        return request('snapshot', {})
      },
      destroy: function () {
        clearTimeout(waiting)
        window.removeEventListener('message', receive)
        frame.remove()
      },
    }
    window.addEventListener('message', receive)
    element.appendChild(frame)
    return ready
  }

  window.Paraform = { mount: mount, version: VERSION }
})()
