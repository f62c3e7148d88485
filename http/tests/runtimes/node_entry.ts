/** Entry of the Node bundle: prints the answers to the sample requests as JSON. */
import { answerSamples } from "./sample_requests.ts";

console.log(JSON.stringify(await answerSamples()));
