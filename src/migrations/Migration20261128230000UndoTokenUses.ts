import { Migration } from '@mikro-orm/migrations';

/**
 * Undo tokens are signed rather than stored (docs/undo.md): a row is written when a token is used
 * (`used_at`, single use) or when its offer was too big to carry. Earlier rows were unused offers.
 */
export class Migration20261128230000UndoTokenUses extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "undo_tokens" add column "used_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "undo_tokens" drop column "used_at";`);
  }
}
