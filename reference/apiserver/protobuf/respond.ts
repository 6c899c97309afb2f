/**
 * Answers in protobuf when the client prefers it (Accept: application/vnd.kubernetes.protobuf
 * first, as client-go's typed clients and kubectl 1.32's `create rolebinding` send it). A kind
 * without a protobuf form here falls back to JSON when the client takes JSON too, and is 406
 * otherwise — upstream does the same for kinds that have no protobuf form (custom resources).
 */
import type { Output } from '../negotiation.ts';
import { errors } from '../status.ts';
import type { Answer, Reply } from '../types.ts';
import { encodeObject, PROTOBUF_MEDIA_TYPE } from './codec.ts';

export function protobufAnswer(answer: Answer, output: Output | undefined): Answer {
  if (output?.preferred !== 'protobuf' || answer.kind !== 'reply') return answer;
  const bytes = typeof answer.body === 'object' && answer.body !== null ? encodeObject(answer.body) : undefined;
  if (bytes) return { ...answer, body: bytes, headers: { ...answer.headers, 'content-type': PROTOBUF_MEDIA_TYPE } } satisfies Reply;
  if (output.jsonOk) return answer;
  const refusal = errors.notAcceptable(['application/json']);
  return { kind: 'reply', status: refusal.code, body: encodeObject(refusal.toStatus())!, headers: { 'content-type': PROTOBUF_MEDIA_TYPE } };
}
