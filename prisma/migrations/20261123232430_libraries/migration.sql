-- CreateTable
CREATE TABLE "Library" (
    "name" TEXT NOT NULL,
    "contentHash" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "fileCount" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Library_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "LibraryFile" (
    "libraryName" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "blobHash" TEXT NOT NULL,
    "size" INTEGER NOT NULL,

    CONSTRAINT "LibraryFile_pkey" PRIMARY KEY ("libraryName","path")
);

-- AddForeignKey
ALTER TABLE "LibraryFile" ADD CONSTRAINT "LibraryFile_libraryName_fkey" FOREIGN KEY ("libraryName") REFERENCES "Library"("name") ON DELETE CASCADE ON UPDATE CASCADE;
