// deno-lint-ignore-file no-explicit-any
import {
  classDecorator,
  type DeclarationKind,
  declarationKind,
  type KitClassDecorator,
} from "@kit/kernel/internal";

/** Turns a request and its actor into a command or query. */
export interface RequestMapper<Request, Message> {
  /** Builds the message. */
  map(request: Request): Message;
}

/** Turns a use case's result into a response body; shapes fields, never decides who sees them. */
export interface Serializer<Result, Body> {
  /** Builds the body. */
  serialize(result: Result): Body;
}

/** The declaration kind of request mappers. */
export const requestMapperDeclarations: DeclarationKind<true> = declarationKind<true>(
  "request-mapper",
);
/** The declaration kind of serializers. */
export const serializerDeclarations: DeclarationKind<true> = declarationKind<true>("serializer");

/** Declares a request mapper, given to a controller by its constructor. */
export function RequestMapper(): KitClassDecorator<
  abstract new (...args: any[]) => { map(request: any): unknown }
> {
  return classDecorator(
    "RequestMapper",
    (target) => requestMapperDeclarations.record(target, true),
  );
}

/** Declares a serializer, given to a controller by its constructor. */
export function Serializer(): KitClassDecorator<
  abstract new (...args: any[]) => { serialize(result: any): unknown }
> {
  return classDecorator("Serializer", (target) => serializerDeclarations.record(target, true));
}
