import { Migration } from '@mikro-orm/migrations';

export class Migration20261127080753 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "oauth_connections" add column "scopes" text[] not null default '{planning:read,planning:write,health:read,health:write,food:read,food:write,journal:read,journal:write,people:read,people:write,projects:read,projects:write,money:read,money:write}';`);

    this.addSql(`alter table "oauth_tokens" add column "scopes" text[] null;`);

    this.addSql(`alter table "oauth_codes" add column "scopes" text[] not null default '{}';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "oauth_codes" drop column "scopes";`);

    this.addSql(`alter table "oauth_connections" drop column "scopes";`);

    this.addSql(`alter table "oauth_tokens" drop column "scopes";`);
  }

}
