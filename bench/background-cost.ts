// What background work costs a customer: moves back to back, each a new value, while the work
// runs, against the same moves on an otherwise idle server in the same run (goal ≤ 1.1×).
import { type Model, move, openCustomer } from './foreground'
import { describe } from './stats'

export interface BackgroundWork {
  /** Starts its `attempt`-th piece; false when none started (it was done at once): the next is tried. */
  start: (attempt: number) => Promise<boolean>
  /** Whether it runs: asked after every move, on the idle server too, where it must start nothing. */
  isRunning: () => Promise<boolean>
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

/**
 * A customer of `model` moves on an idle server (half of its moves before the work, half after,
 * so that neither side has the warm-up), and while the work runs, where a move counts only when
 * the work still ran after it. Each move is followed by the same question (`isRunning`), whose
 * time lets the server prefetch the next value on both sides alike. The work is let end after the moves.
 */
export async function nextMoveWhile(url: string, model: Model, work: BackgroundWork, moves = 24, attempts = 20) {
  const customer = await openCustomer(url, model)
  let value = 0
  const next = async () => (await move(customer, model.parameter, model.value(value++))).ms
  await next()
  const idle: number[] = []
  const idleMoves = async () => {
    for (let i = 0; i < moves / 2; i++) {
      idle.push(await next())
      if (await work.isRunning()) throw new Error('background work runs on the idle server')
    }
  }
  await idleMoves()
  const busy: number[] = []
  let started = 0
  for (let attempt = 0; busy.length < moves && attempt < attempts; attempt++) {
    if (!(await work.start(attempt))) continue
    started++
    while (busy.length < moves) {
      const ms = await next()
      if (!(await work.isRunning())) break
      busy.push(ms)
    }
  }
  const movesEnded = performance.now()
  while ((await work.isRunning()) && performance.now() - movesEnded < 60_000) await sleep(100)
  const endedAfterMs = performance.now() - movesEnded
  await idleMoves()
  return { idle: describe(idle).p50, busy: describe(busy).p50, moves: busy.length, started, endedAfterMs }
}
