/**
 * npm start runs this before building or starting Next: a refused configuration
 * prints one line per problem and exits 78 within seconds, instead of after a build.
 */
import "@/lib/platform/config/exit-on-refusal";
