// NestJS (Node) doing the schema route's work, on the Express or the Fastify adapter (first
// argument): a guard verifying the HS256 bearer token with @nestjs/jwt (issuer and audience
// checked), the global ValidationPipe (class-validator, class-transformer; whitelist,
// transform) on params, query and body, the permission from the token's roles, a service.
// Plain JavaScript: the decorators TypeScript would emit are applied by hand, with the
// `design:paramtypes` metadata ValidationPipe reads. Production settings: logger off.
import "reflect-metadata";
import { createSecretKey } from "node:crypto";
import {
  Body,
  Controller,
  ForbiddenException,
  Headers,
  HttpCode,
  Injectable,
  Module,
  Param,
  Post,
  Query,
  Req,
  UnauthorizedException,
  UseGuards,
  ValidationPipe,
} from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
import { JwtModule, JwtService } from "@nestjs/jwt";
import { FastifyAdapter } from "@nestjs/platform-fastify";
import { ExpressAdapter } from "@nestjs/platform-express";
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, MinLength } from "class-validator";

const [adapter, port, secret, issuer, audience] = process.argv.slice(2);
const decorate = (decorators, target, key, descriptor) =>
  Reflect.decorate(decorators, target, key, descriptor);

class ParamsDto {}
decorate([IsString(), MinLength(1)], ParamsDto.prototype, "calendarId");
class QueryDto {
  notify = "no";
}
decorate([IsOptional(), IsIn(["yes", "no"])], QueryDto.prototype, "notify");
class BodyDto {}
decorate([IsString(), MinLength(1)], BodyDto.prototype, "reason");
decorate(
  [IsArray(), ArrayMaxSize(50), IsString({ each: true })],
  BodyDto.prototype,
  "appointmentIds",
);

class ClearanceService {
  clear(calendarId, appointmentIds) {
    return Promise.resolve({ id: `${calendarId}:${appointmentIds.length}` });
  }
}
decorate([Injectable()], ClearanceService);

class JwtGuard {
  constructor(jwt) {
    this.jwt = jwt;
  }
  async canActivate(context) {
    const request = context.switchToHttp().getRequest();
    const header = request.headers.authorization ?? "";
    if (!header.startsWith("Bearer ")) throw new UnauthorizedException();
    try {
      request.user = await this.jwt.verifyAsync(header.slice(7), {
        algorithms: ["HS256"],
        issuer,
        audience,
      });
    } catch {
      throw new UnauthorizedException();
    }
    return true;
  }
}
Reflect.defineMetadata("design:paramtypes", [JwtService], JwtGuard);
decorate([Injectable()], JwtGuard);

const grants = { practitioner: ["calendar.clear"] };
class ClearancesController {
  constructor(service) {
    this.service = service;
  }
  create(params, _query, _source, body, request) {
    const roles = request.user.roles ?? [];
    if (!roles.some((role) => grants[role]?.includes("calendar.clear"))) {
      throw new ForbiddenException();
    }
    return this.service.clear(params.calendarId, body.appointmentIds);
  }
}
Reflect.defineMetadata("design:paramtypes", [ClearanceService], ClearancesController);
const proto = ClearancesController.prototype;
Reflect.defineMetadata(
  "design:paramtypes",
  [ParamsDto, QueryDto, String, BodyDto, Object],
  proto,
  "create",
);
Param()(proto, "create", 0);
Query()(proto, "create", 1);
Headers("x-request-source")(proto, "create", 2);
Body()(proto, "create", 3);
// The raw request, for the user the guard put on it.
Req()(proto, "create", 4);
const descriptor = Object.getOwnPropertyDescriptor(proto, "create");
decorate([Post(":calendarId/clearances"), HttpCode(202)], proto, "create", descriptor);
decorate([Controller("calendars"), UseGuards(JwtGuard)], ClearancesController);

class AppModule {}
decorate(
  [Module({
    // The secret as a KeyObject, made once: given a string, jsonwebtoken builds a key from it
    // (createSecretKey / createPublicKey) on every verify.
    imports: [JwtModule.register({ secret: createSecretKey(Buffer.from(secret)) })],
    controllers: [ClearancesController],
    providers: [ClearanceService, JwtGuard],
  })],
  AppModule,
);

const app = await NestFactory.create(
  AppModule,
  adapter === "fastify" ? new FastifyAdapter() : new ExpressAdapter(),
  { logger: false },
);
app.useGlobalPipes(new ValidationPipe({ whitelist: true, transform: true }));
await app.listen(Number(port), "127.0.0.1");
console.log("ready");
