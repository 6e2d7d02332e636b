-- CreateTable
CREATE TABLE "BuildTurn" (
    "turn" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "workerId" TEXT NOT NULL,

    CONSTRAINT "BuildTurn_pkey" PRIMARY KEY ("turn")
);
