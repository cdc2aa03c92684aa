export interface Migration {
  version: string;
  sql: string;
}
