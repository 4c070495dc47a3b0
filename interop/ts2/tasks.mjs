// A client that runs tai's served chat as a task: node tasks.mjs URL, on
// the TypeScript SDK 2.4.0 client in its legacy mode (the session era,
// where tasks are the 2025-11-25 revision's) with the MCP Tasks package
// (@modelcontextprotocol/ext-tasks) requiring task execution. It prints
// one JSON line: the chat's text.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';

const [url] = process.argv.slice(2);
const client = new Client({ name: 'tasks-client', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
await client.connect(new StreamableHTTPClientTransport(new URL(url),
  { requestInit: { headers: { Authorization: `Bearer ${process.env.TAI_MCP_KEY}` } } }));
const session = createTaskSessionFromClient(client, { endpointId: 'tai' });
try {
  const execution = await session.callTool('chat', { message: 'a long one' }, { task: { preference: 'require' } });
  const { outcome } = await execution.settle();
  const result = resultFromTaskOutcome(outcome);
  console.log(JSON.stringify({ text: result.content[0].text }));
} finally {
  await session.close();
  await client.close();
}
