/** One searchable Brain table: its rows carry `search_vector`, kept by the database. */
export interface BrainSearchSource {
  /** the entity type named in search results and `/brain/entities/types` */
  type: 'note' | 'database' | 'record' | 'form';
  /** table with columns `id`, the owner column and `search_vector` */
  table: string;
  ownerColumn: string;
  /** SQL expressions over the table alias `e` */
  titleSql: string;
  textSql: string;
}
