import { NextResponse, type NextRequest } from 'next/server'
import { PAGE_PATH_HEADER } from '@/lib/auth/sign-in-path'

// Layouts cannot see the requested path, yet the studio layout's sign-in redirect must come
// back to it (and /configure's). Only the path is passed on: the session itself is checked by the pages.
export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers)
  headers.set(PAGE_PATH_HEADER, request.nextUrl.pathname)
  return NextResponse.next({ request: { headers } })
}

export const config = { matcher: ['/studio/:path*', '/configure/:path*'] }
