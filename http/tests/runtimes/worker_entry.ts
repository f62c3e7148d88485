/** Entry of the workerd bundle: a module worker answering the sample application. */
import { schedulingApp } from "../../testdata/scheduling_app.ts";

const http = schedulingApp();

export default {
  fetch(request: Request): Response | Promise<Response> {
    return http.fetch(request);
  },
};
