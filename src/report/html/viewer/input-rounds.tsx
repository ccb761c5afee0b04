import type { InputExchange, InputRound } from '../../../results/types.js'
import { JsonText, Status } from './common.js'
import { roundWords } from './run-words.js'

/**
 * What the server asked the client during a call (MRTR rounds, or server requests), round by
 * round: each round's via, request and retry ids and whether requestState was echoed, then each
 * exchange — the method, what it asked, who answered and how, the answer or our error, a problem.
 */
function Exchange({ exchange, via }: { exchange: InputExchange; via: InputRound['via'] }) {
  const asked = exchange.summary && exchange.method !== 'roots/list' ? exchange.summary : null
  return (
    <li class="exchange">
      <p>
        <code>{exchange.method}</code> {via === 'server_request' ? `(id ${exchange.key})` : <>key <code>{exchange.key}</code></>}
        {asked !== null && <> “{asked}”</>} → {exchange.answered_by}
      </p>
      {exchange.problem && (
        <p>
          <Status status="warn" label={`problem: ${exchange.problem}`} />
        </p>
      )}
      {exchange.error ? (
        <p>
          Our error {exchange.error.code}: {exchange.error.message}
        </p>
      ) : (
        <details>
          <summary>Our answer</summary>
          <JsonText value={exchange.response} label={`answer to ${exchange.method}`} />
        </details>
      )}
      <details>
        <summary>The request's params</summary>
        <JsonText value={exchange.params} label={`params of ${exchange.method}`} />
      </details>
    </li>
  )
}

export function InputRounds({ rounds, title = 'Input rounds' }: { rounds: InputRound[]; title?: string }) {
  if (rounds.length === 0) return null
  return (
    <div class="input-rounds">
      <p class="label">{title}</p>
      <ol>
        {rounds.map((round) => (
          <li key={round.round} class="input-round">
            <p>{roundWords(round)}</p>
            {round.request_state !== null && (
              <p class="muted">
                requestState sent: <code>{round.request_state}</code>
              </p>
            )}
            <ul>
              {round.exchanges.map((exchange, k) => (
                <Exchange key={k} exchange={exchange} via={round.via} />
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </div>
  )
}
