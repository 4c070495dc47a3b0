// An MCP client on the TypeScript SDK 2.4.0 against `tai --serve-mcp`:
// node client.mjs URL MODE, MODE "auto" (probe with server/discover, fall
// back to initialize) or a version to pin. The key comes from TAI_MCP_KEY.
// It lists the tools, reads note.txt, chats once, calls an unknown tool,
// and prints what it saw as one JSON line.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url, mode] = process.argv.slice(2);
const client = new Client({ name: 'ts2-client', version: '2.4.0' },
  { versionNegotiation: { mode: mode === 'auto' ? 'auto' : { pin: mode } } });
const transport = new StreamableHTTPClientTransport(new URL(url),
  { requestInit: { headers: { Authorization: `Bearer ${process.env.TAI_MCP_KEY}` } } });
await client.connect(transport);
const tools = await client.listTools();
const read = await client.callTool({ name: 'read_file', arguments: { path: 'note.txt' } });
const chat = await client.callTool({ name: 'chat', arguments: { message: 'hi', session: 'ts2' } });
let unknown = 'no error';
try {
  await client.callTool({ name: 'no_such_tool', arguments: {} });
} catch (e) {
  unknown = e.code;
}
console.log(JSON.stringify({
  era: client.getProtocolEra(), version: client.getNegotiatedProtocolVersion(), server: client.getServerVersion()?.name,
  tools: tools.tools.length, read: read.content[0].text, chat: chat.content[0].text, unknown,
}));
await client.close();
