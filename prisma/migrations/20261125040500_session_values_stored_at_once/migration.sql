-- AlterTable
ALTER TABLE "ConfigSession" DROP COLUMN "pendingValues",
DROP COLUMN "storedVersion";
