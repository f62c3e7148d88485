/**
 * Picks the media type to answer in from an `Accept` header and the types a route produces
 * (RFC 9110 §12.5.1: quality values, `type/*` and `*\/*` ranges; `q=0` refuses). Answers the
 * route's first type when there is no `Accept`, and `undefined` when nothing is acceptable.
 */
export function negotiate(accept: string | null, produces: readonly string[]): string | undefined {
  if (accept === null || accept.trim() === "") return produces[0];
  let best: string | undefined;
  let bestQuality = 0;
  let bestSpecificity = -1;
  for (const range of accept.split(",")) {
    const [mediaRange, ...parameters] = range.trim().split(";");
    const media = mediaRange!.trim().toLowerCase();
    let quality = 1;
    for (const parameter of parameters) {
      const [name, value] = parameter.trim().split("=");
      if (name?.trim() === "q") quality = Number(value);
    }
    if (!(quality > 0)) continue;
    const specificity = media === "*/*" ? 0 : media.endsWith("/*") ? 1 : 2;
    for (const type of produces) {
      if (!matches(media, type.toLowerCase())) continue;
      if (quality > bestQuality || (quality === bestQuality && specificity > bestSpecificity)) {
        best = type;
        bestQuality = quality;
        bestSpecificity = specificity;
      }
      break;
    }
  }
  return best;
}

function matches(range: string, type: string): boolean {
  if (range === "*/*") return true;
  if (range.endsWith("/*")) return type.startsWith(range.slice(0, -1));
  return range === type;
}
