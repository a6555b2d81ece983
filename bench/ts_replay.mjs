// Replays a JSONL AG-UI stream through the reference client's full runAgent() pipeline
// (enforce → transformChunks → verifyEvents → defaultApplyEvents) and times it.
// Usage: node ts_replay.mjs STREAM.jsonl [REPEATS]. bench/replay_throughput.py copies this file
// next to the node_modules holding @ag-ui/client@1.0.0 and runs it there.
// Prints one JSON line: {"eventsPerS", "seconds", "events", "summary"}.
import { readFileSync } from "node:fs";
import { AbstractAgent } from "@ag-ui/client";
import { Observable } from "rxjs";

const [path, repeatsArg = "5"] = process.argv.slice(2);
const lines = readFileSync(path, "utf8")
  .split("\n")
  .filter((line) => line.trim());

// The "agent": run() emits the recorded events, each parsed from its line as the stream is read.
class ReplayAgent extends AbstractAgent {
  run() {
    return new Observable((subscriber) => {
      for (const line of lines) subscriber.next(JSON.parse(line));
      subscriber.complete();
    });
  }
}

async function replayOnce() {
  const agent = new ReplayAgent({ threadId: "thread-bench" });
  const start = process.hrtime.bigint();
  await agent.runAgent();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { seconds, agent };
}

// What the run left behind, in the same shape replay_throughput.py computes for copilot_ui's thread.
function summary(agent) {
  const calls = agent.messages.flatMap((message) => message.toolCalls ?? []);
  return {
    messages: agent.messages.length,
    toolCalls: calls.length,
    contentChars: agent.messages.reduce((sum, m) => sum + (typeof m.content === "string" ? m.content.length : 0), 0),
    argumentChars: calls.reduce((sum, call) => sum + call.function.arguments.length, 0),
    state: agent.state,
  };
}

await replayOnce(); // warm-up
let best;
for (let i = 0; i < Number(repeatsArg); i++) {
  const run = await replayOnce();
  if (best === undefined || run.seconds < best.seconds) best = run;
}
console.log(
  JSON.stringify({
    eventsPerS: Math.round(lines.length / best.seconds),
    seconds: best.seconds,
    events: lines.length,
    summary: summary(best.agent),
  }),
);
