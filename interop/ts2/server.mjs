// An MCP server on the TypeScript SDK 2.4.0 that speaks only the stateless
// era (2026-07-28): `legacy: 'reject'` refuses initialize. With "http" it
// serves Streamable HTTP on a free loopback port and prints its URL;
// otherwise it serves stdio.
import http from 'node:http';
import { McpServer, createMcpHandler, fromJsonSchema } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { toNodeHandler } from '@modelcontextprotocol/node';

function factory() {
  const server = new McpServer({ name: 'ts2-stateless', version: '2.4.0' }, { capabilities: { tools: {} } });
  server.registerTool('echo', {
    description: 'Echoes its message',
    inputSchema: fromJsonSchema({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] }),
  }, async ({ message }) => ({ content: [{ type: 'text', text: `Echo: ${message}` }] }));
  server.registerTool('fail', {
    description: 'Always fails',
    inputSchema: fromJsonSchema({ type: 'object', properties: {} }),
  }, async () => ({ content: [{ type: 'text', text: 'it broke' }], isError: true }));
  return server;
}

if (process.argv[2] === 'http') {
  const srv = http.createServer(toNodeHandler(createMcpHandler(factory, { legacy: 'reject' })));
  srv.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${srv.address().port}/mcp`));
} else {
  serveStdio(factory, { legacy: 'reject' });
}
