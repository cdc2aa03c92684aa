/** One SQL function as a release ships it: its file's text and the generation its header line gives. */
export interface SqlFunction {
  name: string;
  /**
   * `-- Generation: N` in the file: raised with every change of the body. The repeatable
   * step never installs a lower generation over a higher one (a newer release's body).
   */
  generation: number;
  sql: string;
}
