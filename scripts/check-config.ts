/**
 * npm start runs this before building or starting Next (issue 20 item 1): a refused configuration
 * prints one line per problem and exits 78 within seconds, instead of after a build.
 */
import "@/lib/config/exit-on-refusal";
