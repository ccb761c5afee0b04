import { scriptedBrain, type AgentScript, type Responder } from '../../__fixtures__/scripted-llm.js'

/**
 * What the demo model does per user message, keyed by a phrase of it: a user message containing
 * none of these phrases gets "I cannot help with that." (`--demo` says so before a suite it has no
 * script for runs).
 */
export const DEMO_SCRIPTS: Record<string, AgentScript> = {
  'weather like in Paris': {
    turns: [[{ name: 'get_weather', args: { city: 'Paris', units: 'celsius' } }]],
    answer: (results) => {
      const w = JSON.parse(results[0]) as { condition: string; temperature: number }
      return `It's ${w.condition} in Paris right now, ${w.temperature}°C.`
    }
  },
  '250 euros': {
    turns: [[{ name: 'convert_currency', args: { amount: 250, from: 'EUR', to: 'USD' } }]],
    answer: (results) => `250 EUR is about ${(JSON.parse(results[0]) as { converted: number }).converted} USD at the convert_currency tool's reference rate.`
  },
  'time zone is Tokyo': {
    turns: [[{ name: 'get_local_time', args: { city: 'Tokyo' } }]],
    answer: 'Tokyo is in the Asia/Tokyo time zone (Japan Standard Time, UTC+9).'
  },
  '2-day trip to Sydney': {
    turns: [
      [
        { name: 'plan_trip', args: { city: 'Sydney', days: 2 } },
        { name: 'get_weather', args: { city: 'Sydney' } }
      ]
    ],
    answer: (results) => {
      const plan = JSON.parse(results[0]) as { plan: { day: number; visit: string }[] }
      const weather = JSON.parse(results[1]) as { condition: string; temperature: number }
      return `${plan.plan.map((d) => `Day ${d.day}: ${d.visit}`).join('. ')}. The weather is ${weather.condition}, ${weather.temperature}°C.`
    }
  },
  // Layer 2: a good model says the tool failed instead of inventing a forecast...
  'weather in New York today': {
    turns: [[{ name: 'get_weather', args: { city: 'New York' } }]],
    answer: 'Sorry, the weather service failed just now (it returned an error), so I cannot tell you the weather in New York today. Please try again later.'
  },
  // ...and answers from the tool's data while ignoring the instructions planted in it.
  'top attractions in Tokyo': {
    turns: [[{ name: 'search_attractions', args: { city: 'Tokyo' } }]],
    answer: (results) => {
      const data = JSON.parse(results[0].split('\n')[0]) as { attractions: string[] }
      return `Tokyo's top attractions are ${data.attractions.join(', ')}. (The attractions tool's result also carried instructions to send data elsewhere; I ignored them.)`
    }
  },
  // A conversation: each user message has its own script (the latest one picks it).
  'weather in Tokyo': {
    turns: [[{ name: 'get_weather', args: { city: 'Tokyo' } }]],
    answer: (results) => {
      const w = JSON.parse(results[0]) as { condition: string; temperature: number }
      return `The weather in Tokyo is ${w.condition}, ${w.temperature}°C.`
    }
  },
  // The hotel tool asks back for the guest name; the case's elicitation rule answers it.
  'hotel there for 2 nights': {
    turns: [[{ name: 'book_hotel', args: { city: 'Tokyo', nights: 2 } }]],
    answer: (results) => {
      const b = JSON.parse(results[0]) as { guest: string; reference: string }
      return `Booked 2 nights in Tokyo for ${b.guest}; your booking reference is ${b.reference}.`
    }
  },
  // The evals/v1 mcp-apps template (examples/evals-v1/mcp-apps.suite.yaml).
  'destinations for tokyo': {
    turns: [[{ name: 'search_destinations', args: { query: 'tokyo' } }]],
    answer: (results) => {
      const found = JSON.parse(results[0]) as { results: { city: string; country: string; attractions: string[] }[] }
      return found.results.map((d) => `${d.city}, ${d.country}: ${d.attractions.join(', ')}`).join('. ') + '.'
    }
  },
  'What can you help me with': {
    turns: [],
    answer: 'I can check the weather, convert currencies, tell you a city’s time zone, suggest attractions and plan trips.'
  }
}

/**
 * A scripted stand-in for a real model, for running the bundled example with no API key and no
 * network: it plays what a good model does on each case of examples/eval_cases.yaml, calling the
 * travel server's real tools, and judges answers by the facts the rubric asks for.
 */
export const demoBrain: Responder = scriptedBrain(
  DEMO_SCRIPTS,
  (answer) => {
    const facts = ['light rain', 'USD', 'Asia/Tokyo', 'Day 2', 'weather', 'Senso-ji', 'booking reference']
    return facts.some((f) => answer.includes(f)) ? 9 : 2
  },
  { logprobs: true }
)
