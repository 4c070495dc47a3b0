// An MCP server on the TypeScript SDK 2.4.0 that speaks only the stateless
// era (2026-07-28): `legacy: 'reject'` refuses initialize. With "http" it
// serves Streamable HTTP on a free loopback port and prints its URL;
// otherwise it serves stdio.
import http from 'node:http';
import { McpServer, ResourceTemplate, completable, createMcpHandler, fromJsonSchema } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
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
  // Beyond tools, for the stateless era's resources, prompts, completion,
  // progress and logging.
  server.registerResource('note', 'ts2://note', { mimeType: 'text/plain', description: 'A short note' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'a note from ts2' }] }));
  server.registerResource('item', new ResourceTemplate('ts2://item/{id}', {
    list: undefined,
    complete: { id: (value) => ['one', 'two', 'ten'].filter((v) => v.startsWith(value)) },
  }), { description: 'An item by id' }, async (uri, { id }) => ({ contents: [{ uri: uri.href, text: `item ${id}` }] }));
  server.registerPrompt('greet', {
    description: 'Greets someone',
    argsSchema: z.object({ who: completable(z.string(), (value) => ['ada', 'alan', 'grace'].filter((v) => v.startsWith(value))) }),
  }, ({ who }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Say hello to ${who}` } }] }));
  server.registerTool('progress', {
    description: 'Reports progress three times, logging as it goes',
    inputSchema: fromJsonSchema({ type: 'object', properties: {} }),
  }, async (_args, ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    for (let i = 1; i <= 3; i++) {
      if (token !== undefined) {
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: 3, message: `step ${i}` } });
      }
      await ctx.mcpReq.log('error', `logged step ${i}`, 'ts2');
    }
    return { content: [{ type: 'text', text: 'done' }] };
  });
  return server;
}

if (process.argv[2] === 'http') {
  const srv = http.createServer(toNodeHandler(createMcpHandler(factory, { legacy: 'reject' })));
  srv.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${srv.address().port}/mcp`));
} else {
  serveStdio(factory, { legacy: 'reject' });
}
