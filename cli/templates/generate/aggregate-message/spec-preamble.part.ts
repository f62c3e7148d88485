import { testApplication } from "../../../../../platform/platform-test.module.ts";
import { $camel$Module } from "../../../$context$.module.ts";
$permissionsImport$$typeImport$import { $builderImports$ } from "../../../domain/$builderFile$";
import { $repository$ } from "../../ports/$aggregateKebab$-repository.ts";
import { InMemory$repository$ } from "../../../infrastructure/$aggregateKebab$.memory-repository.ts";
import { $message$ } from "./$messageKebab$.$kind$.ts";

const $variable$s = new InMemory$repository$();
const application = testApplication([$camel$Module], {
  grants: $grants$,
  providers: [{ provide: $repository$, provider: { useValue: $variable$s } }],
});
// Each caller of one tenant works for it: the bus runs their messages in that tenant.
const actor = userActor("someone", { roles: ["granted"], tenants: ["t1"] });
const ofAnotherTenant = userActor("someone-of-t2", { roles: ["granted"], tenants: ["t2"] });
const inT1 = { origin: "test", actor, tenantId: "t1", correlationId: "spec" };

/** A $aggregate$ of the tenant t1, added as its repository's owner would. */
function seed(id: string): Promise<number> {
  return runInScope({ execution: inT1 }, () => $variable$s.add($build$(id)));
}
