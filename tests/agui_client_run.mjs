// A client-side tool through @ag-ui/client's HttpAgent, as a CopilotKit front end runs one:
// the first run ends with a call of change_background, the client runs the tool itself, and a
// follow-up run with its result brings the agent's reply. Prints what the client ended with, as JSON.
//   AGUI_CLIENT_URL=file:///…/@ag-ui/client/dist/index.mjs AGUI_TOKEN=… node agui_client_run.mjs <endpoint url> <message>
const { HttpAgent } = await import(process.env.AGUI_CLIENT_URL);
const [url, message] = process.argv.slice(2);

const changeBackground = {
  name: "change_background",
  description: "Change the background color of the page.",
  parameters: {
    type: "object",
    properties: { color: { type: "string", description: "A CSS color" } },
    required: ["color"],
  },
};
let background = "white"; // what the client-side tool changes

const agent = new HttpAgent({ url, headers: { Authorization: `Bearer ${process.env.AGUI_TOKEN}` } });
const seen = { outcomes: [], errors: [] };
const subscriber = {
  onRunFinishedEvent: ({ event }) => void seen.outcomes.push(event.outcome ?? { type: "success" }),
  onRunErrorEvent: ({ event }) => void seen.errors.push(event.message),
  onRunFailed: ({ error }) => void seen.errors.push(String(error)),
};

agent.addMessage({ id: "user-1", role: "user", content: message });
await agent.runAgent({ tools: [changeBackground] }, subscriber);

const answered = new Set(agent.messages.filter((m) => m.role === "tool").map((m) => m.toolCallId));
const calls = agent.messages.flatMap((m) => m.toolCalls ?? []).filter((call) => !answered.has(call.id));
for (const call of calls) {
  const { color } = JSON.parse(call.function.arguments);
  background = color;
  agent.addMessage({ id: `result-${call.id}`, role: "tool", toolCallId: call.id, content: `The background is ${color} now.` });
}
if (calls.length > 0) await agent.runAgent({ tools: [changeBackground] }, subscriber);

const assistant = agent.messages.filter((m) => m.role === "assistant");
console.log(
  JSON.stringify({
    background,
    calls: calls.map((call) => ({ name: call.function.name, arguments: JSON.parse(call.function.arguments) })),
    outcomes: seen.outcomes,
    errors: seen.errors,
    roles: agent.messages.map((m) => m.role),
    reply: assistant.at(-1)?.content ?? "",
  }),
);
