-- CreateTable
CREATE TABLE "StoragePlace" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "placeId" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StoragePlace_pkey" PRIMARY KEY ("id")
);
