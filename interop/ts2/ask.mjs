// A client that answers the questions of tai's served chat: node ask.mjs
// URL SDK ANSWER, SDK "1" (the TypeScript SDK 1.x, @modelcontextprotocol/sdk),
// "2" (2.4.0, @modelcontextprotocol/client, in its legacy mode, the
// session era) or "2s" (2.4.0 pinned to 2026-07-28, the stateless era,
// where the question comes as an input_required result). It declares elicitation, answers each elicitation/create
// with ANSWER ("decline" declines), chats once, and prints one JSON line:
// the chat's text and the questions it was asked.
const [url, sdk, answer] = process.argv.slice(2);
const headers = { Authorization: `Bearer ${process.env.TAI_MCP_KEY}` };
const asked = [];
const reply = (params) => {
  asked.push({ message: params.message, schema: params.requestedSchema });
  return answer === 'decline' ? { action: 'decline' } : { action: 'accept', content: { answer } };
};
let client;
if (sdk === '1') {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
  client = new Client({ name: 'ask-sdk1', version: '1' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (req) => reply(req.params));
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
} else {
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  client = new Client({ name: 'ask-sdk2', version: '2.4.0' }, { capabilities: { elicitation: { form: {} } },
    versionNegotiation: { mode: sdk === '2s' ? { pin: '2026-07-28' } : 'legacy' } });
  client.setRequestHandler('elicitation/create', async (req) => reply(req.params));
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
}
const chat = await client.callTool({ name: 'chat', arguments: { message: 'paint the shed' } });
console.log(JSON.stringify({ chat: chat.content[0].text, asked }));
await client.close();
