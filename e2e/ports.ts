// Where the end-to-end specs reach the server (E2E_PORT) and the demo shop beside it, on another origin.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210)
export const SHOP_PORT = E2E_PORT + 1
